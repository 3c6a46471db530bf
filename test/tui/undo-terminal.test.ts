/**
 * `u` on the screen, in a real terminal: the person's last changes of the session (a move past
 * the gate, an approval and its withdrawal, an edit, an archive, a thing detached, an agent's
 * access) taken back one by one, the latest first, each a change in the history; taking back an
 * approval and withdrawing one ask first; `>` past the gate says that it approves; a change that
 * another hand changed since is not taken back. Skipped, saying why, only where tmux is absent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { AGENT, PERSON, batches } from './harness.js';
import { BINDER as binder, NO_TMUX as why, hasTmux, startScreen, type Terminal } from './tmux-screen.js';

/** The agent's own command, as an agent runs it. */
function agent(term: Terminal, ...args: string[]) {
  return spawnSync(process.execPath, [binder, ...args, '--dir', term.agentDir], { encoding: 'utf8', cwd: term.root, env: { ...process.env, CI: '' } });
}

/** The record as the store has it, read by the person's own `binder admin` beside the screen. */
function admin(term: Terminal, ...args: string[]) {
  return spawnSync(process.execPath, [binder, 'admin', '--store', join(term.root, 'store'), '--as', 'ann', ...args], { encoding: 'utf8', env: { ...process.env, CI: '' } });
}

function record(term: Terminal, id: number): { state: string; title: string; approved: unknown; archived: boolean; attached: unknown[] } {
  const got = admin(term, 'get', String(id), '--json');
  assert.equal(got.status, 0, got.stderr);
  const parsed = JSON.parse(got.stdout) as { record?: unknown };
  return (parsed.record ?? parsed) as ReturnType<typeof record>;
}

/** The line the cursor is on (drawn with `>` first). */
const cursorLine = (s: string): string => s.split('\n').find((l) => l.trimStart().startsWith('>')) ?? '';
const selected = (s: string, text: string) => s.split('\n').some((l) => l.includes(`>${text}`));

/** `j` until the cursor's line holds `text`, each step waited on. */
async function downTo(term: Terminal, text: string): Promise<void> {
  for (let i = 0; i < 30 && !cursorLine(term.screen()).includes(text); i++) {
    const was = cursorLine(term.screen());
    term.keys('j');
    await term.until((s) => cursorLine(s) !== was, 'the cursor a line down', 2000).catch(() => '');
  }
  assert.ok(cursorLine(term.screen()).includes(text), `the cursor on ${text}`);
}

test('u takes back the person\'s changes one by one, the latest first; approvals ask first; > past the gate says it approves', { skip: hasTmux ? false : why, timeout: 120_000 }, async (t) => {
  const term = await startScreen(t, {
    prepare: async (store) => {
      await batches(store);
      await store.add('batches', { title: 'Dark mode' }, AGENT);
      await store.attach(1, { kind: 'link', ref: 'https://example.org/spec', title: 'the spec' }, AGENT);
    },
  });
  await term.until((s) => s.includes('#1 Dark mode') && s.includes('Lists'), 'the board');
  term.keys('Tab');
  await term.until((s) => selected(s, '#1 Dark mode'), 'the card selected');

  // > past the gate approves, and says so.
  term.keys('>');
  await term.until((s) => s.includes('Approved #1 and moved it to Approved, past the gate · u undoes it'), 'the move past the gate, said as an approval');
  assert.equal(record(term, 1).state, 'approved');

  // An edit of the title.
  term.keys('e');
  await term.until((s) => s.includes('Edit a record #1'), 'the edit form');
  term.keys('C-u');
  term.literal('Dark mode, done right');
  term.keys('Enter');
  await term.until((s) => s.includes('Changed #1 · u undoes it'), 'the title changed');
  assert.equal(record(term, 1).title, 'Dark mode, done right');

  // Withdrawing asks first; the withdrawal is kept too.
  term.keys('a');
  await term.until((s) => s.includes('Withdraw your approval of #1 “Dark mode, done right”?'), 'asked before withdrawing');
  term.keys('y');
  await term.until((s) => s.includes('Withdrew the approval of #1') && s.includes('Proposed (1)'), 'withdrawn, back before the gate');

  // Taken back in reverse order: the withdrawal (approved again, past the gate again), the edit, the move (asked: it withdraws).
  term.keys('u');
  await term.until((s) => s.includes('Undone: Withdrew the approval of #1') && s.includes('Approved (1)'), 'the withdrawal taken back');
  assert.ok(record(term, 1).approved, 'approved again');
  term.keys('u');
  await term.until((s) => s.includes('Undone: Changed #1') && s.includes('#1 Dark mode') && !s.includes('done r'), 'the edit taken back');
  assert.equal(record(term, 1).title, 'Dark mode');
  term.keys('u');
  await term.until((s) => s.includes('Undo “Approved #1 and moved it to Approved, past the gate”? It withdraws your approval of #1 “Dark mode”.'), 'asked before the approval is taken back');
  term.keys('y');
  await term.until((s) => s.includes('Undone: Approved #1 and moved it') && s.includes('Proposed (1)'), 'back where it was, not approved');
  const back = record(term, 1);
  assert.equal(back.state, 'proposed');
  assert.equal(back.approved, null);
  // Each taking back is a change in the history like any other, after the changes it takes back.
  const got = admin(term, 'get', '1', '--json');
  const ops = (JSON.parse(got.stdout) as { history: { op: string }[] }).history.map((h) => h.op);
  assert.deepEqual(ops.slice(-8), ['move', 'edit', 'approve', 'approve', 'move', 'edit', 'move', 'approve'], ops.join(' '));
  term.keys('u');
  await term.until((s) => s.includes('Nothing to undo now.'), 'nothing more to take back');

  // An archive and a thing detached, then an agent's access: the latest first again.
  term.keys('x');
  await term.until((s) => !s.includes('#1 Dark mode'), 'archived');
  assert.equal(record(term, 1).archived, true);
  term.keys('u');
  await term.until((s) => s.includes('Undone: Archived #1') && s.includes('#1 Dark mode'), 'restored');
  term.keys('Enter');
  await term.until((s) => s.includes('Attached (1)'), 'the record');
  await downTo(term, 'example.org/spec');
  term.keys('T');
  await term.until((s) => s.includes('Attached (0)') && s.includes('Detached from #1 · u undoes it'), 'detached');
  term.keys('Escape');
  await term.until((s) => s.includes('Proposed (1)'), 'the board');
  term.keys('p');
  await term.until((s) => s.includes('Agent') && s.includes('write'), 'the access screen');
  term.keys('Left');
  await term.until((s) => s.includes('Agent') && s.includes('read') && s.includes('u undoes it'), 'the agent reads only');
  term.keys('u');
  await term.until((s) => s.includes('Undone:') && s.includes('write'), 'the agent writes again');
  assert.equal(agent(term, 'note', '1', 'still here').status, 0, 'the agent may write again');
  term.keys('u');
  await term.until((s) => s.includes('Undone: Detached from #1'), 'attached again');
  assert.equal(record(term, 1).attached.length, 1);
});

test('u does not take back a change that another hand changed since: it says so and forces nothing', { skip: hasTmux ? false : why, timeout: 60_000 }, async (t) => {
  const term = await startScreen(t, {
    prepare: async (store) => {
      await batches(store);
      await store.add('batches', { title: 'Dark mode' }, AGENT);
      await store.approve(1, true, PERSON);
      await store.move(1, 'doing', AGENT);
    },
  });
  await term.until((s) => s.includes('#1 Dark mode') && s.includes('Doing (1)'), 'the board');
  term.keys('Tab', 'l');
  await term.until((s) => s.includes('▸ Approved'), 'the second column');
  term.keys('l');
  await term.until((s) => s.includes('▸ Doing') && selected(s, '#1 Dark mode'), 'the card in Doing');
  term.keys('>');
  await term.until((s) => s.includes('Moved #1 to Done · u undoes it') && s.includes('Done (1)'), 'moved on');
  const moved = agent(term, 'move', '1', 'Doing');
  assert.equal(moved.status, 0, moved.stderr + moved.stdout);
  await term.until((s) => s.includes('Doing (1)'), 'the agent\'s move on the screen');
  term.keys('u');
  await term.until((s) => s.includes('#1 changed since (someone else moved or edited it): nothing was undone.'), 'refused, with a sentence');
  assert.equal(record(term, 1).state, 'doing', 'where the agent put it');
});

test('u puts back the words of a note the person rewrote, unless someone rewrote it since', { skip: hasTmux ? false : why, timeout: 60_000 }, async (t) => {
  const term = await startScreen(t, {
    prepare: async (store) => {
      await batches(store);
      await store.add('batches', { title: 'Dark mode' }, AGENT);
      await store.note(1, 'the login page first', PERSON);
    },
  });
  await term.until((s) => s.includes('#1 Dark mode'), 'the board');
  term.keys('Tab', 'Enter');
  await term.until((s) => s.includes('the login page first'), 'the record and its note');
  await downTo(term, 'the login page first');
  term.keys('E');
  await term.until((s) => s.includes('Edit') && s.includes('the login page first') && !s.includes('History'), 'the note\'s form');
  term.keys('C-u');
  term.literal('the settings page first');
  term.keys('Enter');
  await term.until((s) => s.includes('the settings page first') && s.includes('u undoes it'), 'the note rewritten');
  term.keys('u');
  await term.until((s) => s.includes('the login page first') && s.includes('Undone:'), 'its words put back');
  const notes = (JSON.parse(admin(term, 'get', '1', '--json').stdout) as { record: { notes: { text: string }[] } }).record.notes;
  assert.deepEqual(notes.map((n) => n.text), ['the login page first']);
});
