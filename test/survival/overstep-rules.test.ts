/**
 * Two attacks on the store's rules, as an agent makes them with the real `binder` against a real
 * keeper (`binder serve --no-tui`), a person approving with `binder admin`: an approved record
 * retitled before it is moved on (the approval is withdrawn, the move refused, the history and
 * the person's brief say why), and a record another agent holds changed behind its back (each
 * change refused naming the holder, nothing changed but a note; a wait on it returns when the
 * holder gives it back).
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openStore, type Store } from '../../src/store/index.js';
import { binderAsync, serveKeeper, type Run } from '../helpers/processes.js';
import { tempDir, until } from '../helpers/temp.js';
import { ann } from './harness.js';
import { dbOf } from '../helpers/sqlite-db.js';

interface Kept { storeDir: string; store: Store; as: (agent: string, ...args: string[]) => Promise<Run>; admin: (...args: string[]) => Promise<Run> }

async function kept(t: TestContext): Promise<Kept> {
  const root = tempDir(t, 'binder-overstep-rules-');
  const storeDir = join(root, 'store');
  const store = openStore(storeDir);
  t.after(() => store.close());
  await store.createList({ template: 'batches' }, ann);
  const dirs: Record<string, string> = {};
  for (const name of ['Alice', 'Carol']) {
    const dir = join(root, name.toLowerCase(), '.binder');
    mkdirSync(dir, { recursive: true });
    await store.addSide(dir, name, ann);
    await store.grant('batches', name, 'write', ann);
    dirs[name] = dir;
  }
  await serveKeeper(t, ['--store', storeDir, '--quiet']);
  return {
    storeDir,
    store,
    as: (agent, ...args) => binderAsync(args, { env: { BINDER_DIR: dirs[agent]! } }),
    admin: (...args) => binderAsync(['admin', '--store', storeDir, '--as', 'Bea', ...args]),
  };
}

const done = (r: Run, what: string): string => {
  assert.equal(r.code, 0, `${what}: ${r.err}`);
  return r.out.trim();
};
const refused = (r: Run, what: string): string => {
  assert.equal(r.code, 1, `${what} was not refused: ${r.out}`);
  return r.err.trim();
};

test('an approved record retitled by an agent is not moved past the gate: the approval is withdrawn, and everyone is told', async (t) => {
  const k = await kept(t);
  assert.match(done(await k.as('Alice', 'add', 'batches', 'Harmless: fix typo'), 'add'), /^Added #1 to batches in Proposed/);
  done(await k.admin('brief'), 'the person\'s first brief');
  done(await k.admin('approve', '1'), 'approve');

  // The exact attack: approved, retitled, moved.
  const edited = done(await k.as('Alice', 'edit', '1', '--title', 'Drop the production database'), 'edit');
  assert.equal(edited, 'Changed #1: title. Bea had approved it as it was: the approval is withdrawn. A person must approve it again; binder wait 1 returns when one does.');
  assert.equal(refused(await k.as('Alice', 'move', '1', 'Doing'), 'move'),
    'Not done: #1 is not approved: only a person can let it past "Approved". Ask a person to approve it; binder wait 1 returns when one does.');
  const record = (await k.store.get(1, ann)).record;
  assert.deepEqual([record.state, record.approved, record.title], ['proposed', null, 'Drop the production database']);

  // Past the gate, the same change puts it back before the gate.
  done(await k.admin('edit', '1', '--title', 'Harmless: fix typo'), 'a person\'s own edit');
  done(await k.admin('approve', '1'), 'approve again');
  done(await k.as('Alice', 'move', '1', 'Doing'), 'move once approved');
  assert.match(done(await k.as('Alice', 'edit', '1', '--title', 'Drop the production database'), 'edit past the gate'),
    /the approval is withdrawn and it is back in Proposed\. A person must approve it again/);
  assert.equal((await k.store.get(1, ann)).record.state, 'proposed');
  assert.match(done(await k.as('Carol', 'get', '1'), 'get'), /approval withdrawn: title changed by Alice, back in Proposed$/m);
  const brief = done(await k.admin('brief'), 'the person\'s brief');
  assert.match(brief, /^#1 Drop the production database: approval withdrawn: title changed by Alice; a person must approve it again$/m);
  assert.match(brief, /^#1 Drop the production database: approval withdrawn: title changed by Alice, back in Proposed; a person must approve it again$/m);
});

test('a record Alice holds is not changed by Carol: each change refused naming Alice, a note allowed, a wait told when it is free', async (t) => {
  const k = await kept(t);
  done(await k.as('Alice', 'add', 'batches', 'Dark mode'), 'add');
  done(await k.admin('approve', '1'), 'approve');
  done(await k.as('Alice', 'attach', '1', 'branch', 'site:dark-mode'), 'attach');
  assert.match(done(await k.as('Alice', 'take', '1', '--for', '2h'), 'take'), /^You hold #1 Dark mode/);
  done(await k.as('Carol', 'brief'), 'Carol\'s first brief');
  const before = await k.store.get(1, ann);

  const attacks = [
    ['edit', '1', '--title', 'Carol\'s now'], ['edit', '1', '--owner', 'me'], ['edit', '1', '--due', '2030-01-01'],
    ['move', '1', 'Doing'], ['archive', '1'], ['attach', '1', 'link', 'https://example.com/x'], ['detach', '1', 'site:dark-mode'],
    ['take', '1'],
  ];
  for (const argv of attacks) {
    const why = refused(await k.as('Carol', ...argv), `binder ${argv.join(' ')}`);
    assert.match(why, /^Not done: #1 is taken by Alice until \d{4}-\d\d-\d\d \d\d:\d\d UTC \(in (2 h|119 min)\): /, argv.join(' '));
    assert.match(why, /binder wait 1 returns when (it|this one) changes, as when it is given back\.$/, argv.join(' '));
  }
  assert.match(refused(await k.as('Carol', 'release', '1'), 'release'), /^Not done: #1 is taken by Alice, not you: only Alice or a person can give it back\.$/);
  const after = await k.store.get(1, ann);
  assert.deepEqual(after.record, before.record, 'the record is as it was');
  assert.deepEqual(after.history, before.history);

  assert.equal(done(await k.as('Carol', 'note', '1', 'I need the login page too'), 'note'), 'Noted on #1 (n1).');
  assert.match(done(await k.as('Alice', 'brief'), 'Alice\'s brief'), /#1 Dark mode: note by Carol: I need the login page too/);

  const waiting = k.as('Carol', 'wait', '1', '--timeout', '60s');
  await until(() => (dbOf(k.store).prepare('SELECT count(*) FROM waits').pluck().get() as number) === 1, 15_000, 'Carol\'s wait to be held');
  done(await k.as('Alice', 'release', '1'), 'release');
  assert.equal(done(await waiting, 'wait'), '1 change since you last looked:\n#1 Dark mode: given back by Alice; it is free');
  assert.match(done(await k.as('Carol', 'take', '1'), 'take once free'), /^You hold #1 Dark mode/);
});
