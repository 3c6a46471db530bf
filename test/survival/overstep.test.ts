/**
 * Agents cannot overstep, through the one dispatch every face uses: every person's operation
 * asked by an agent with arguments that would work for a person and every forged identity;
 * every write to a list granted read only; every read of a list not granted. 0 done, 0
 * changes (the whole store compared), 0 words of the hidden list told, and a hidden list or
 * record refused in exactly the words used for one that does not exist.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.js';
import { createPerform } from '../../src/keeper/perform.js';
import { OPERATIONS } from '../../src/keeper/operations.js';
import type { Answer } from '../../src/keeper/protocol.js';
import { tempDir } from '../helpers/temp.js';
import { FORGED, HIDDEN, ann, bot, dumpStore, layBinder, leaksHidden, notASentence, withoutEchoes, type Laid } from './fuzz-kit.js';

async function setup(t: TestContext) {
  const store = openStore(join(tempDir(t, 'binder-overstep-'), 'store'));
  t.after(() => store.close());
  store.db.pragma('synchronous = OFF');
  const laid = await layBinder(store);
  const bugs: string[] = [];
  const perform = createPerform({ store, log: (line) => bugs.push(line) });
  return { store, laid, perform, bugs };
}

/** Arguments with which each person's operation is done for a person, in a binder laid out as `laid`. */
function personArgs(laid: Laid, dir: string): Record<string, Record<string, unknown>[]> {
  return {
    approve: [{ id: laid.batches[0] }, { id: laid.batches[1], withdraw: true }, { id: laid.hidden }],
    delete: [{ id: laid.batches[0] }, { id: laid.tasks[0] }, { id: laid.hidden }],
    'edit-note': [{ id: laid.batches[0], note: laid.annNote, text: 'rewritten' }, { id: laid.batches[0], note: laid.botNote, text: 'rewritten' }],
    templates: [{}, { lang: 'fr' }],
    'create-list': [{ template: 'batches', title: 'Agent made' }],
    'edit-list': [{ list: 'batches', ungate: ['Approved'] }, { list: 'tasks', title: 'Renamed' }, { list: HIDDEN.id, title: 'Renamed' }],
    grant: [{ list: 'tasks', agent: 'agent:bot', access: 'write' }, { list: HIDDEN.id, agent: 'Bot', access: 'read' }, { list: 'batches', agent: 'agent:spy', access: 'write' }],
    'archive-list': [{ list: 'batches' }, { list: HIDDEN.id }],
    'delete-list': [{ list: 'batches' }, { list: HIDDEN.id }],
    sides: [{}],
    'side-add': [{ dir, name: 'Ann' }],
    'side-remove': [{ name: 'Ann' }],
    'token-list': [{}],
    'token-add': [{ name: 'Bot' }, { name: 'Ann', expires: '30d' }],
    'token-revoke': [{ token: 'Bot' }],
    people: [{}],
    'set-role': [{ person: 'yan@acme.test', role: 'admin' }, { person: 'xia@acme.test', role: 'member' }],
    'remove-person': [{ person: 'yan@acme.test' }],
  };
}

/** Each forged identity alone, all of them at once, and none. */
const FORGERIES: Record<string, unknown>[] = [{}, FORGED, ...Object.entries(FORGED).map(([k, v]) => ({ [k]: v })), { who: { id: 'person:ann', kind: 'person', name: 'ann' }, kind: 'person' }];

test('every person\'s operation, asked by an agent with every forged identity, is refused: 0 done, 0 changes', async (t) => {
  const { store, laid, perform, bugs } = await setup(t);
  const dir = join(tempDir(t), 'side');
  const table = personArgs(laid, dir);
  const personOps = OPERATIONS.filter((o) => !o.agents).map((o) => o.name);
  assert.deepEqual(Object.keys(table).sort(), [...personOps].sort(), 'every person\'s operation is tried');
  // Two people signed in, for the people operations: Xia first (the admin), then Yan.
  await store.signIn({ id: 'person:idp.test/xia', kind: 'person', name: 'Xia', email: 'xia@acme.test' });
  await store.signIn({ id: 'person:idp.test/yan', kind: 'person', name: 'Yan', email: 'yan@acme.test' });
  const before = dumpStore(store.db);
  let tried = 0;
  for (const [op, argsList] of Object.entries(table)) {
    for (const args of argsList) {
      for (const lie of FORGERIES) {
        for (const want of [undefined, 'json'] as const) {
          tried++;
          const a = await perform(op, { ...lie, ...args }, bot, want);
          assert.equal(a.ok, false, `${op} was done for an agent`);
          assert.match(a.text, /^Only a person can /, op);
          assert.deepEqual(notASentence(a.text), [], a.text);
          assert.deepEqual(leaksHidden(a.text), [], a.text);
          assert.equal(a.data, undefined);
        }
      }
    }
  }
  assert.equal(dumpStore(store.db), before, 'the binder changed');
  assert.deepEqual(bugs, []);
  t.diagnostic(`${tried} asks of a person's operations by an agent: 0 done, 0 changes`);

  // The same arguments work for a person: the refusals above were the agent's, not the arguments'.
  const last = ['delete', 'delete-list', 'side-remove', 'token-revoke', 'remove-person'];
  for (const op of [...personOps.filter((o) => !last.includes(o)), ...last]) {
    const a = await perform(op, table[op]![0]!, ann);
    assert.equal(a.ok, true, `${op} for a person: ${a.text}`);
  }
});

test('an agent\'s own operations with a forged identity are done as the agent, never approved, never past a gate', async (t) => {
  const { store, laid, perform } = await setup(t);
  const added = await perform('add', { list: 'batches', title: 'forged add', ...FORGED }, bot, 'json');
  assert.equal(added.ok, true, added.text);
  const id = (added.data as { id: number }).id;
  const view = await store.get(id, ann);
  assert.equal(view.history[0]!.by.id, bot.id);
  assert.equal(view.record.approved, null);
  const before = dumpStore(store.db);
  for (const lie of FORGERIES) {
    for (const [op, args] of [
      ['add', { list: 'batches', title: 'past the gate', state: 'Approved' }],
      ['add', { list: 'batches', title: 'past the gate', state: 'Doing' }],
      ['move', { id, state: 'Approved' }],
      ['move', { id: laid.batches[0], state: 'Done' }],
      ['archive', { id: laid.hidden }],
      ['edit', { id: laid.tasks[0], title: 'changed' }],
    ] as const) {
      const a = await perform(op, { ...lie, ...args }, bot);
      assert.equal(a.ok, false, `${op} ${JSON.stringify(args)}`);
      assert.deepEqual(notASentence(a.text), [], a.text);
    }
  }
  assert.equal(dumpStore(store.db), before);
});

test('every write to a list granted read only is refused: 0 done, 0 changes, and the refusal says why', async (t) => {
  const { store, laid, perform } = await setup(t);
  const [task] = laid.tasks;
  const writes: [string, Record<string, unknown>][] = [
    ['add', { list: 'tasks', title: 'x' }], ['add', { list: 'Tasks', title: 'x', state: 'Doing' }],
    ['edit', { id: task, title: 'x' }], ['edit', { id: task, fields: { priority: 'Low' } }], ['edit', { id: task, owners: ['me'] }], ['edit', { id: task, due: '2026-11-04' }],
    ['move', { id: task, state: 'Doing' }], ['note', { id: task, text: 'x' }],
    ['attach', { id: task, kind: 'link', ref: 'https://x.example' }], ['attach', { id: task, kind: 'record', ref: `#${laid.batches[0]}` }],
    ['detach', { id: task, what: 'https://x.example' }],
    ['archive', { id: task }], ['restore', { id: task }], ['take', { id: task }], ['take', { next: 'tasks' }], ['release', { id: task, note: 'x' }],
    ['needs', { id: task, others: String(laid.batches[0]) }], ['needs', { id: laid.batches[0], others: String(task) }],
  ];
  const before = dumpStore(store.db);
  let tried = 0;
  for (const [op, args] of writes) {
    for (const lie of [{}, FORGED]) {
      tried++;
      const a = await perform(op, { ...lie, ...args }, bot);
      assert.equal(a.ok, false, `${op} ${JSON.stringify(args)} was done on a list granted read only`);
      assert.deepEqual(notASentence(a.text), [], a.text);
      if (op !== 'take' || args.next === undefined) assert.match(a.text, /You may only read "Tasks": ask a person to give you write access to it\./, `${op}: ${a.text}`);
    }
  }
  assert.equal(dumpStore(store.db), before, 'the binder changed');
  t.diagnostic(`${tried} writes to a list granted read only: 0 done`);
});

/** `answer` with every mention of what was asked for put back to one neutral word. */
const neutral = (answer: Answer, given: string): string => answer.text.split(given).join('⟨ref⟩');

test('reads of a list not granted: no title, id, record or note of it in any answer, and refused as if absent', async (t) => {
  const { store, laid, perform } = await setup(t);
  // A person's doings in the hidden list that a brief or a wait would tell if they leaked.
  await store.note(laid.hidden, `${HIDDEN.note}, again`, ann);
  await store.move(laid.hidden, 'Done', ann);
  const absent = 999_999;
  const before = dumpStore(store.db, ['cursors']);
  const told: string[] = [];
  let tried = 0;
  const ask = async (op: string, args: Record<string, unknown>): Promise<Answer> => {
    tried++;
    const a = await perform(op, args, bot, 'json');
    told.push(withoutEchoes(`${a.text}\n${JSON.stringify(a.data ?? null)}`, args));
    return a;
  };
  // Whole views: the hidden list is simply not there.
  for (const [op, args] of [
    ['lists', {}], ['search', { text: HIDDEN.record }], ['search', { text: 'zumbrality' }], ['search', { text: 'plinthwaxe', archived: true }],
    ['search', { text: HIDDEN.title }], ['ready', {}], ['ready', { blocked: true }], ['brief', {}], ['wait', {}],
  ] as const) {
    const a = await ask(op, args);
    if (op === 'search') assert.match(a.text, /^Nothing found for /, `${op} ${JSON.stringify(args)}: ${a.text}`);
  }
  // A hidden list by its id or title, against a list that does not exist.
  for (const ref of [HIDDEN.id, HIDDEN.title, HIDDEN.title.toUpperCase(), ` ${HIDDEN.id} `]) {
    for (const [op, args] of [
      ['show', { list: ref }], ['show', { list: ref, archived: true }], ['ready', { list: ref }], ['ready', { list: ref, blocked: true }], ['take', { next: ref }],
      ['add', { list: ref, title: 'x' }], ['wait', { on: ref, timeout: '1s' }],
    ] as const) {
      const hidden = await ask(op, args);
      const none = await ask(op, { ...args, ...('list' in args ? { list: 'nowhere-at-all' } : {}), ...('next' in args ? { next: 'nowhere-at-all' } : {}), ...('on' in args ? { on: 'nowhere-at-all' } : {}) });
      assert.equal(hidden.ok, false, `${op} ${ref}`);
      assert.equal(neutral(hidden, ref.trim()), neutral(none, 'nowhere-at-all'), `${op} tells a hidden list from an absent one`);
    }
  }
  // A record of the hidden list by its number, against a number no record has.
  for (const [op, args] of [
    ['get', {}], ['edit', { title: 'x' }], ['move', { state: 'To do' }], ['note', { text: 'x' }], ['attach', { kind: 'link', ref: 'https://x.example' }],
    ['detach', { what: '1' }], ['archive', {}], ['restore', {}], ['take', {}], ['release', {}], ['wait', { timeout: '1s' }],
    ['needs', { others: String(laid.batches[0]) }],
  ] as const) {
    for (const form of [(n: number) => n, (n: number) => `#${n}`]) {
      const key = op === 'wait' ? 'on' : 'id';
      const hidden = await ask(op, { ...args, [key]: form(laid.hidden) });
      const none = await ask(op, { ...args, [key]: form(absent) });
      assert.equal(hidden.ok, false, `${op} #${laid.hidden}`);
      assert.equal(neutral(hidden, String(laid.hidden)), neutral(none, String(absent)), `${op} tells a hidden record from an absent one`);
    }
  }
  // Naming a hidden record from a record the agent may change.
  for (const ref of [String(laid.hidden), `#${laid.hidden}`]) {
    const hidden = await ask('attach', { id: laid.batches[0], kind: 'record', ref });
    const none = await ask('attach', { id: laid.batches[0], kind: 'record', ref: ref.replace(String(laid.hidden), String(absent)) });
    assert.equal(neutral(hidden, String(laid.hidden)), neutral(none, String(absent)));
    const needed = await ask('needs', { id: laid.batches[0], others: ref });
    const neededNone = await ask('needs', { id: laid.batches[0], others: ref.replace(String(laid.hidden), String(absent)) });
    assert.equal(needed.ok, false);
    assert.equal(neutral(needed, String(laid.hidden)), neutral(neededNone, String(absent)));
  }
  const leaked = told.flatMap((text) => leaksHidden(text));
  assert.deepEqual(leaked, [], 'words of the hidden list reached the agent');
  assert.equal(dumpStore(store.db, ['cursors']), before, 'reading changed the binder');
  t.diagnostic(`${tried} reads of a list not granted: 0 words of it told`);
});
