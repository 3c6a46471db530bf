/**
 * The store against a small model of lists, records, gates, access and claims (fast-check
 * commands): random sequences of a person's and agents' operations, each predicted by the model
 * — done or refused — and the store compared with the model after every step. Proves the gate
 * (no record at or past a gate unapproved unless a person put it there, and an agent's change of
 * an approved record's title withdraws the approval), access (an agent sees and changes only what
 * it was granted), claims (no agent changes a record another holds; a lapsed claim never
 * blocks), and that a refused operation changes nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import fc from 'fast-check';
import { openStore, Refused, type Store, type Who } from '../../src/store/index.js';
import { tempDir } from '../helpers/temp.js';
import { ann, bot, dumpStore, fuzzSeed } from './fuzz-kit.js';
import { dbOf } from '../helpers/sqlite-db.js';

const spy: Who = { id: 'agent:spy', kind: 'agent', name: 'Spy' };
const AGENTS = [bot, spy] as const;
const WHO = [ann, bot, spy] as const;

const TEMPLATES = {
  batches: { states: ['proposed', 'approved', 'doing', 'done'], gate: 1 },
  tasks: { states: ['to-do', 'doing', 'review', 'done'], gate: -1 },
  blank: { states: ['to-do', 'done'], gate: -1 },
} as const;
type Template = keyof typeof TEMPLATES;

interface ListModel { id: string; title: string; template: Template; archived: boolean; access: Map<string, 'read' | 'write'> }
interface RecordModel {
  id: number; list: string; state: number; approved: boolean; archived: boolean;
  /** Who holds it (a Who id) and until when (ms), and its owners (only claims make owners here). */
  holder: string | null; until: number; owners: string[];
}
interface Model { lists: Map<string, ListModel>; records: Map<number, RecordModel> }
interface Real { store: Store; clock: { ms: number }; figures: { steps: number; refused: number; done: number; held: number; withdrawn: number } }

const MIN = 60_000;
/** A record `who` may change as far as claims go: free, its own, or `who` is a person (counted when not). */
const free = (r: Real, rec: RecordModel, who: Who): boolean => {
  const yes = rec.holder === null || rec.holder === who.id || who.kind === 'person';
  if (!yes) r.figures.held++;
  return yes;
};
const record = (id: number, list: string, state: number, approved: boolean): RecordModel =>
  ({ id, list, state, approved, archived: false, holder: null, until: 0, owners: [] });

const isPerson = (who: Who): boolean => who.kind === 'person';
const states = (l: ListModel) => TEMPLATES[l.template].states;
const pastGate = (l: ListModel, state: number): boolean => TEMPLATES[l.template].gate >= 0 && state >= TEMPLATES[l.template].gate;

/** `fn`'s value, or the refusal's sentence. Anything else thrown is a bug and fails the test. */
async function attempt<T>(fn: () => T | Promise<T>): Promise<{ ok: true; value: T } | { ok: false; text: string }> {
  try {
    return { ok: true, value: await fn() };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, text: error.message };
    throw error;
  }
}

/** Runs `fn` expecting what the model says; a refusal must leave the store as it was. */
async function expect<T>(real: Real, expected: boolean, what: string, fn: () => T | Promise<T>): Promise<T | undefined> {
  real.figures.steps++;
  const before = dumpStore(dbOf(real.store));
  const got = await attempt(fn);
  if (!got.ok) {
    real.figures.refused++;
    assert.equal(expected, false, `${what} was refused, the model says it is done: ${got.text}`);
    assert.equal(dumpStore(dbOf(real.store)), before, `${what} was refused and changed the store`);
    return undefined;
  }
  real.figures.done++;
  assert.equal(expected, true, `${what} was done, the model says it is refused`);
  return got.value;
}

/** The list an agent may see with its level, or undefined. */
function seen(m: Model, listId: string, who: Who): { list: ListModel; level: 'read' | 'write' } | undefined {
  const list = m.lists.get(listId);
  if (!list) return undefined;
  if (isPerson(who)) return { list, level: 'write' };
  const level = list.access.get(who.id);
  return level && !list.archived ? { list, level } : undefined;
}

/**
 * The list `ref` names for `who`, as the store finds it: by id among the lists it may see, else
 * by title (two lists may share a title: an agent that cannot see the one whose id was given
 * finds the other by its title, the first in the order they were made).
 */
function named(m: Model, ref: string, who: Who): { list: ListModel; level: 'read' | 'write' } | undefined {
  return seen(m, ref, who)
    ?? [...m.lists.values()].map((l) => seen(m, l.id, who)).find((f) => f && f.list.title.toLowerCase() === ref.toLowerCase());
}

const pickList = (m: Model, n: number): string => {
  const ids = [...m.lists.keys()];
  return n < ids.length ? ids[n]! : 'nowhere-list';
};
const pickRecord = (m: Model, n: number): number => {
  const ids = [...m.records.keys()];
  return n < ids.length ? ids[n]! : 999_999;
};

/** The store compared with the model, whole: records, lists, access, and the gate's rule. */
function compare(m: Model, real: Real): void {
  const rows = dbOf(real.store).prepare(`SELECT id, list, state, approved_by IS NOT NULL AS approved, archived,
      json_extract(lease_by, '$.id') AS holder, lease_until AS until, owners FROM records ORDER BY id`).all() as
    { id: number; list: string; state: string; approved: number; archived: number; holder: string | null; until: number | null; owners: string }[];
  assert.deepEqual(rows.map((r) => r.id), [...m.records.keys()].sort((a, b) => a - b), 'the records');
  for (const row of rows) {
    const r = m.records.get(row.id)!;
    const list = m.lists.get(r.list)!;
    assert.deepEqual({ list: row.list, state: row.state, approved: row.approved === 1, archived: row.archived === 1,
      holder: row.holder, until: row.until ?? 0, owners: JSON.parse(row.owners) as string[] },
    { list: r.list, state: states(list)[r.state], approved: r.approved, archived: r.archived,
      holder: r.holder, until: r.until, owners: r.owners }, `record #${row.id}`);
    if (pastGate(list, r.state)) assert.ok(r.approved, `#${row.id} is at or past the gate unapproved`);
  }
  const lists = dbOf(real.store).prepare('SELECT id, archived FROM lists ORDER BY id').all() as { id: string; archived: number }[];
  assert.deepEqual(lists, [...m.lists.values()].map((l) => ({ id: l.id, archived: l.archived ? 1 : 0 })).sort((a, b) => a.id.localeCompare(b.id)), 'the lists');
  const access = dbOf(real.store).prepare('SELECT list, agent, level FROM access ORDER BY list, agent').all();
  const modelAccess = [...m.lists.values()].flatMap((l) => [...l.access].map(([agent, level]) => ({ list: l.id, agent, level })))
    .sort((a, b) => a.list.localeCompare(b.list) || a.agent.localeCompare(b.agent));
  assert.deepEqual(access, modelAccess, 'the access');
}

type Cmd = fc.AsyncCommand<Model, Real>;
const cmd = (name: string, run: (m: Model, r: Real) => void | Promise<void>): Cmd => ({
  check: () => true,
  run: async (m, r) => {
    await run(m, r);
    await compare(m, r);
  },
  toString: () => name,
});

const commands: fc.Arbitrary<Cmd>[] = [
  fc.tuple(fc.constantFrom<Template>('batches', 'tasks', 'blank'), fc.constantFrom('Work', 'Plans', 'Work'), fc.constantFrom(...WHO)).map(([template, title, who]) =>
    cmd(`createList(${template}, ${title}, ${who.name})`, async (m, r) => {
      // A title another list holds is refused: agents name lists by title.
      const free = ![...m.lists.values()].some((l) => l.title.toLowerCase() === title.toLowerCase());
      const made = await expect(r, isPerson(who) && free, 'createList', () => r.store.createList({ template, title }, who));
      if (made) {
        assert.ok(!m.lists.has(made.id), `a new list took the id of another: ${made.id}`);
        m.lists.set(made.id, { id: made.id, title, template, archived: false, access: new Map() });
      }
    })),
  fc.tuple(fc.nat(4), fc.constantFrom(...AGENTS), fc.constantFrom<'read' | 'write' | null>('read', 'write', null), fc.constantFrom(...WHO)).map(([n, agent, level, who]) =>
    cmd(`grant(list ${n}, ${agent.name}, ${level}, ${who.name})`, async (m, r) => {
      const id = pickList(m, n);
      const list = m.lists.get(id);
      await expect(r, isPerson(who) && list !== undefined, 'grant', () => r.store.grant(id, agent.id, level, who));
      if (isPerson(who) && list) {
        if (level) list.access.set(agent.id, level);
        else list.access.delete(agent.id);
      }
    })),
  fc.tuple(fc.nat(4), fc.option(fc.nat(3)), fc.constantFrom(...WHO)).map(([n, state, who]) =>
    cmd(`add(list ${n}, state ${state}, ${who.name})`, async (m, r) => {
      const id = pickList(m, n);
      const found = named(m, id, who);
      const list = found?.list;
      const at = state ?? 0;
      const ok = !!list && found!.level === 'write' && !list.archived && at < states(list).length && (isPerson(who) || !pastGate(list, at));
      const stateName = list && state !== null ? states(list)[state] ?? `state-${state}` : undefined;
      const made = await expect(r, ok, 'add', () => r.store.add(id, { title: 'a record', ...(stateName ? { state: stateName } : {}) }, who));
      if (made) m.records.set(made.id, record(made.id, list!.id, at, isPerson(who) && pastGate(list!, at)));
    })),
  fc.tuple(fc.nat(5), fc.nat(3), fc.constantFrom(...WHO)).map(([n, state, who]) =>
    cmd(`move(record ${n}, state ${state}, ${who.name})`, async (m, r) => {
      const id = pickRecord(m, n);
      const rec = m.records.get(id);
      const found = rec && seen(m, rec.list, who);
      const list = found?.list;
      const valid = !!list && state < states(list).length;
      const ok = !!rec && !!found && found.level === 'write' && !rec.archived && valid && free(r, rec, who)
        && (state === rec.state || rec.approved || !pastGate(list!, state) || isPerson(who));
      await expect(r, ok, 'move', () => r.store.move(id, list ? states(list)[state] ?? 'no-such-state' : 'doing', who));
      if (ok && rec && state !== rec.state) {
        if (pastGate(list!, state) && !rec.approved) rec.approved = true;
        rec.state = state;
      }
    })),
  fc.tuple(fc.nat(5), fc.boolean(), fc.constantFrom(...WHO)).map(([n, yes, who]) =>
    cmd(`approve(record ${n}, ${yes}, ${who.name})`, async (m, r) => {
      const id = pickRecord(m, n);
      const rec = m.records.get(id);
      const ok = isPerson(who) && !!rec && !rec.archived;
      await expect(r, ok, 'approve', () => r.store.approve(id, yes, who));
      if (ok && rec) {
        const list = m.lists.get(rec.list)!;
        if (yes) rec.approved = true;
        else {
          if (pastGate(list, rec.state)) rec.state = TEMPLATES[list.template].gate - 1;
          rec.approved = false;
        }
      }
    })),
  fc.tuple(fc.nat(5), fc.boolean(), fc.constantFrom(...WHO)).map(([n, archived, who]) =>
    cmd(`archive(record ${n}, ${archived}, ${who.name})`, async (m, r) => {
      const id = pickRecord(m, n);
      const rec = m.records.get(id);
      const found = rec && seen(m, rec.list, who);
      const ok = !!found && found.level === 'write' && free(r, rec, who) && rec.archived !== archived;
      await expect(r, ok, 'archive', () => r.store.archive(id, archived, who));
      if (ok && rec) rec.archived = archived;
    })),
  fc.tuple(fc.nat(4), fc.boolean(), fc.constantFrom(...WHO)).map(([n, archived, who]) =>
    cmd(`archiveList(list ${n}, ${archived}, ${who.name})`, async (m, r) => {
      const id = pickList(m, n);
      const list = m.lists.get(id);
      const ok = isPerson(who) && !!list;
      await expect(r, ok, 'archiveList', () => r.store.archiveList(id, archived, who));
      if (ok && list) list.archived = archived;
    })),
  fc.tuple(fc.nat(5), fc.constantFrom(...WHO)).map(([n, who]) =>
    cmd(`delete(record ${n}, ${who.name})`, async (m, r) => {
      const id = pickRecord(m, n);
      const ok = isPerson(who) && m.records.has(id);
      await expect(r, ok, 'delete', () => r.store.delete(id, who));
      if (ok) m.records.delete(id);
    })),
  fc.tuple(fc.nat(4), fc.constantFrom(...WHO)).map(([n, who]) =>
    cmd(`deleteList(list ${n}, ${who.name})`, async (m, r) => {
      const id = pickList(m, n);
      const ok = isPerson(who) && m.lists.has(id);
      await expect(r, ok, 'deleteList', () => r.store.deleteList(id, who));
      if (ok) {
        m.lists.delete(id);
        for (const [rid, rec] of m.records) if (rec.list === id) m.records.delete(rid);
      }
    })),
  fc.tuple(fc.nat(5), fc.constantFrom<'title' | 'due'>('title', 'title', 'due'), fc.nat(8), fc.constantFrom(...WHO)).map(([n, what, v, who]) =>
    cmd(`edit(record ${n}, ${what} ${v}, ${who.name})`, async (m, r) => {
      const id = pickRecord(m, n);
      const rec = m.records.get(id);
      const found = rec && seen(m, rec.list, who);
      const ok = !!rec && !!found && found.level === 'write' && !rec.archived && free(r, rec, who);
      // A new title each time (the step's number), so that a title edit always changes it.
      const input = what === 'title' ? { title: `title ${r.figures.steps}` } : { due: `2027-01-0${v + 1}` };
      await expect(r, ok, 'edit', () => r.store.edit(id, input, who));
      if (ok && rec && what === 'title' && !isPerson(who) && rec.approved) {
        // What a person approved changed: the approval goes, and the record back before the gate.
        const list = m.lists.get(rec.list)!;
        if (pastGate(list, rec.state)) rec.state = TEMPLATES[list.template].gate - 1;
        rec.approved = false;
        r.figures.withdrawn++;
      }
    })),
  fc.tuple(fc.nat(5), fc.constantFrom(5, 30), fc.constantFrom(...WHO)).map(([n, minutes, who]) =>
    cmd(`take(record ${n}, ${minutes}m, ${who.name})`, async (m, r) => {
      const id = pickRecord(m, n);
      const rec = m.records.get(id);
      const found = rec && seen(m, rec.list, who);
      const mine = rec?.holder === who.id;
      const ok = !!rec && !!found && found.level === 'write' && !rec.archived && (rec.holder === null || mine)
        && (mine || rec.owners.every((o) => o === who.id));
      await expect(r, ok, 'take', () => r.store.take(id, who, { forMs: minutes * MIN }));
      if (ok && rec) {
        rec.holder = who.id;
        rec.until = r.clock.ms + minutes * MIN;
        if (!rec.owners.includes(who.id)) rec.owners.push(who.id);
      }
    })),
  fc.tuple(fc.nat(5), fc.constantFrom(...WHO)).map(([n, who]) =>
    cmd(`release(record ${n}, ${who.name})`, async (m, r) => {
      const id = pickRecord(m, n);
      const rec = m.records.get(id);
      const found = rec && seen(m, rec.list, who);
      // Taking a claim away is a person's act; with no claim, the asker's own ownership ends.
      const ok = !!rec && !!found && found.level === 'write' && free(r, rec, who);
      await expect(r, ok, 'release', () => r.store.release(id, who));
      if (ok && rec) {
        const gone = rec.holder ?? (rec.owners.includes(who.id) ? who.id : null);
        rec.owners = rec.owners.filter((o) => o !== gone);
        rec.holder = null;
        rec.until = 0;
      }
    })),
  fc.constantFrom(10, 40).map((minutes) =>
    cmd(`time passes (${minutes}m)`, async (m, r) => {
      // The keeper's pass over claims: every lease that ran out lapses, its holder no owner.
      r.clock.ms += minutes * MIN;
      await r.store.lapse();
      for (const rec of m.records.values()) {
        if (rec.holder !== null && rec.until <= r.clock.ms) {
          rec.owners = rec.owners.filter((o) => o !== rec.holder);
          rec.holder = null;
          rec.until = 0;
        }
      }
    })),
  fc.constantFrom(...AGENTS).map((agent) =>
    cmd(`reads(${agent.name})`, async (m, r) => {
      // What an agent sees is what it was granted, in lists not archived: no more, no less.
      const lists = (await r.store.lists(agent)).map((l) => ({ id: l.id, access: l.access })).sort((a, b) => a.id.localeCompare(b.id));
      const expected = [...m.lists.values()].filter((l) => seen(m, l.id, agent))
        .map((l) => ({ id: l.id, access: l.access.get(agent.id)! })).sort((a, b) => a.id.localeCompare(b.id));
      assert.deepEqual(lists, expected, `${agent.name}'s lists`);
      for (const rec of m.records.values()) {
        const visible = !!seen(m, rec.list, agent);
        await expect(r, visible, `get #${rec.id} by ${agent.name}`, () => r.store.get(rec.id, agent));
      }
    })),
];

/**
 * One store for every run: each starts from the same binder — Batches (a gate) that Bot and Spy
 * may change (so that one may hold what the other would change), Tasks that Spy may read, a
 * record in each and an approved one in Batches — and its model. The last run's binder is
 * wiped by hand (not deleted through the store: that is the operations' to prove), so that
 * the whole-store comparisons stay small.
 */
async function start(store: Store): Promise<Model> {
  dbOf(store).exec(`DELETE FROM notes; DELETE FROM attachments; DELETE FROM records; DELETE FROM access; DELETE FROM lists;
    DELETE FROM log; DELETE FROM cursors; INSERT INTO record_text (record_text) VALUES ('delete-all'); INSERT INTO note_text (note_text) VALUES ('delete-all');`);
  const model: Model = { lists: new Map(), records: new Map() };
  const batches = (await store.createList({ template: 'batches' }, ann)).id;
  const tasks = (await store.createList({ template: 'tasks' }, ann)).id;
  await store.grant(batches, bot.id, 'write', ann);
  await store.grant(batches, spy.id, 'write', ann);
  await store.grant(tasks, spy.id, 'read', ann);
  model.lists.set(batches, { id: batches, title: 'Batches', template: 'batches', archived: false, access: new Map([[bot.id, 'write'], [spy.id, 'write']]) });
  model.lists.set(tasks, { id: tasks, title: 'Tasks', template: 'tasks', archived: false, access: new Map([[spy.id, 'read']]) });
  for (const [list, who] of [[batches, bot], [tasks, ann]] as const) {
    const made = await store.add(list, { title: 'a first record' }, who);
    model.records.set(made.id, record(made.id, list, 0, false));
  }
  // One approved record to start with, so that agents' changes meet approvals often.
  const approved = (await store.add(batches, { title: 'an approved record' }, bot)).id;
  await store.approve(approved, true, ann);
  model.records.set(approved, record(approved, batches, 0, true));
  return model;
}

test('model: the store\'s lists, records, gates and access follow a model through random sequences of operations', async (t) => {
  const clock = { ms: Date.UTC(2026, 0, 15, 12, 0) };
  const store = openStore(join(tempDir(t, 'binder-model-'), 'store'), { now: () => clock.ms });
  t.after(() => store.close());
  store.db.pragma('synchronous = OFF');
  const real: Real = { store, clock, figures: { steps: 0, refused: 0, done: 0, held: 0, withdrawn: 0 } };
  const seed = fuzzSeed();
  let runs = 0;
  await fc.assert(fc.asyncProperty(fc.commands(commands, { maxCommands: 60, size: '+1' }), async (cmds) => {
    runs++;
    await fc.asyncModelRun(async () => ({ model: await start(store), real }), cmds);
  }), { numRuns: 200, seed, includeErrorInReport: true });
  t.diagnostic(`seed ${seed}: ${runs} sequences, ${real.figures.steps} operations (${real.figures.done} done, ${real.figures.refused} refused; `
    + `${real.figures.withdrawn} approvals withdrawn by an agent's edit, ${real.figures.held} changes to a record another held), every one as the model said`);
});
