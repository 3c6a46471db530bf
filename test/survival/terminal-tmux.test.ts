/**
 * The screen in a real terminal (tmux), every byte it writes piped aside: first the screens of a
 * list of harmless records (what the screen writes of its own), then the same screens of the
 * agent's hostile records, written meanwhile. No escape sequence of a kind the harmless screens
 * did not write, no hostile sequence, control, bidi override or payload, and the window's title
 * untouched. Skipped, saying why, only where tmux is absent.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../../src/store/index.js';
import { agentWho, personWho } from '../../src/keeper/keeper.js';
import { BINDER } from '../helpers/processes.js';
import { ATTACKS_PER_TEXT, agentRecords, escapes, kindOf, leaks } from './terminal-kit.js';

const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const why = 'tmux is not installed here; the real-terminal test needs it (CI installs it)';
const ann = personWho('ann');
const agent = agentWho('Agent');

interface Terminal {
  screen(): string;
  until(check: (screen: string) => boolean, what: string, ms?: number): Promise<string>;
  keys(...keys: string[]): void;
  tmux(...args: string[]): string;
  bytes(): string;
  exitCode(): string | null;
}

function start(t: TestContext, root: string, storeDir: string, agentDir: string): Terminal {
  const socket = `binder-survival-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const tmux = (...args: string[]): string => spawnSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' }).stdout ?? '';
  const command = `cd '${root}' && env -u CI TERM=xterm-256color '${process.execPath}' '${BINDER}' tui --store '${storeDir}' --side '${agentDir}=Agent' --as ann 2>'${join(root, 'stderr')}'; echo $? > '${join(root, 'exit')}'`;
  tmux('new-session', '-d', '-x', '120', '-y', '40', '-s', 'main', command);
  tmux('pipe-pane', '-o', '-t', 'main', `cat >> '${join(root, 'bytes')}'`);
  t.after(() => { tmux('kill-server'); });
  const screen = () => tmux('capture-pane', '-p', '-t', 'main');
  const exitCode = () => (existsSync(join(root, 'exit')) ? readFileSync(join(root, 'exit'), 'utf8').trim() : null);
  return {
    screen, tmux, exitCode,
    keys: (...keys) => { for (const k of keys) tmux('send-keys', '-t', 'main', k); },
    bytes: () => (existsSync(join(root, 'bytes')) ? readFileSync(join(root, 'bytes'), 'utf8') : ''),
    async until(check, what, ms = 10_000) {
      const end = Date.now() + ms;
      for (;;) {
        const now = screen();
        if (check(now)) return now;
        if (exitCode() !== null) throw new Error(`the screen ended while waiting for ${what}: ${readFileSync(join(root, 'stderr'), 'utf8').slice(0, 2000)}`);
        if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}; the terminal showed:\n${now}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}

/** A list of the batches template with the fields the kit's records fill. */
async function makeList(store: Store, title: string): Promise<string> {
  const list = (await store.createList({ template: 'batches', title }, ann)).id;
  await store.editList(list, { fields: [{ name: 'Branch', type: 'text' }, { name: 'Reviewer', type: 'person' }] }, ann);
  await store.grant(list, agent.id, 'write', ann);
  return list;
}

/** The screens a person reaches an agent's records by, from a list's board. */
async function visit(term: Terminal, word: string): Promise<void> {
  // From the lists pane, Enter goes into the board, and again opens the record there.
  for (let tries = 0; ; tries++) {
    term.keys('Enter');
    try {
      await term.until((s) => s.includes(`${word} note`), `the ${word} record`, 1500);
      break;
    } catch (error) {
      if (tries === 3) throw error;
    }
  }
  term.keys('PageDown', 'PageDown', 'PageDown');
  await term.until((s) => s.includes('History'), `the ${word} record's history`);
  // An Escape and the next key sent together read as Alt and that key: each Escape is waited out.
  const back = async (gone: (s: string) => boolean, what: string): Promise<void> => {
    term.keys('Escape');
    await term.until(gone, what);
  };
  const inRecord = (s: string): boolean => s.includes('History') && !s.includes('for good?') && !s.includes('Edit a record');
  term.keys('e');
  await term.until((s) => s.includes('Reviewer') && s.includes('Owners'), 'the edit form');
  await back(inRecord, 'the record again');
  term.keys('D');
  await term.until((s) => s.includes('for good?'), 'the delete dialog');
  await back(inRecord, 'the record again');
  term.keys('m');
  await term.until((s) => s.includes('Doing') && s.includes('Done') && !s.includes('History'), 'the move dialog');
  await back(inRecord, 'the record again');
  await back((s) => !s.includes('History'), 'the board again');
  term.keys('/');
  await term.until((s) => s.includes('Search:'), 'the search');
  term.keys(word.toLowerCase());
  await term.until((s) => s.includes(`#`) && s.includes(`${word} 2`) && !s.includes('Search: \n'), 'the search results');
  await back((s) => !s.includes('Search:'), 'the board again');
  term.keys('b');
  await term.until((s) => s.includes('What changed'), 'the brief');
  await back((s) => !s.includes('What changed'), 'the board again');
}

test('binder tui in a real terminal: hostile records on every screen write nothing the screen does not write of its own', { skip: hasTmux ? false : why, timeout: 120_000 }, async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'binder-survival-tmux-'));
  const storeDir = join(root, 'store');
  const agentDir = join(root, 'work', '.binder');
  mkdirSync(agentDir, { recursive: true });
  const store = openStore(storeDir);
  t.after(async () => {
    await store.close();
    rmSync(root, { recursive: true, force: true });
  });
  const calm = await makeList(store, 'Calm');
  const evil = await makeList(store, 'Evil list');
  await agentRecords(store, agent, calm, true);

  const term = start(t, root, storeDir, agentDir);
  await term.until((s) => s.includes('Calm') && s.includes('Evil list'), 'the lists');
  const titleBefore = term.tmux('display-message', '-p', '-t', 'main', '#{pane_title}');
  await term.until((s) => s.includes('#1 Calm 2'), 'the calm board');
  await visit(term, 'Calm');
  await store.editList(calm, { view: 'table' }, ann);
  await term.until((s) => s.includes('Title') && s.includes('More Calm'), 'the calm table');
  const own = term.bytes();

  // The agent writes meanwhile; the person opens its list.
  const texts = await agentRecords(store, agent, evil);
  term.keys('Escape');
  await term.until((s) => /> ?Evil list|>\s*Calm/.test(s) || s.includes('Lists'), 'the lists pane');
  term.keys('j');
  await term.until((s) => s.includes('Evil 2') && s.includes('Due: #') && s.includes('Due Evil'), 'the hostile board and its due notice');
  await visit(term, 'Evil');
  await store.editList(evil, { view: 'table' }, ann);
  await term.until((s) => s.includes('Title') && s.includes('More Evil'), 'the hostile table');
  assert.equal(term.tmux('display-message', '-p', '-t', 'main', '#{pane_title}'), titleBefore, 'nothing set the window title');
  term.keys('q');
  await term.until(() => term.exitCode() !== null, 'the screen to end');
  assert.equal(term.exitCode(), '0');

  const all = term.bytes();
  const hostile = all.slice(own.length);
  assert.ok(hostile.includes('Evil 2') && hostile.includes('{q0'), 'the pipe saw the hostile screens');
  const ownKinds = new Set(escapes(own).map(kindOf));
  assert.deepEqual(leaks(hostile, ownKinds), []);
  t.diagnostic(`${hostile.length} bytes written for ${texts} hostile texts (up to ${ATTACKS_PER_TEXT} attacks each): ${ownKinds.size} kinds of the screen's own escapes, 0 others, 0 hostile bytes`);
});
