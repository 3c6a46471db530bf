/**
 * What the fuzz and overstep tests share: who asks, a binder laid out with lists an agent may
 * write, only read, or not see at all, a full dump of the store to compare before and after a
 * refused operation, the test of "a refusal is a sentence", argument generators biased toward
 * values that reach deep into the operations, and the seed each run uses (FUZZ_SEED replays one).
 * It must never share a store between test files, nor sleep.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { Database, Statement } from 'better-sqlite3';
import type { Store, Who } from '../../src/store/index.js';
import type { ArgSpec } from '../../src/keeper/operations.js';
import { inOrder } from '../helpers/temp.js';

export const ann: Who = { id: 'person:ann', kind: 'person', name: 'ann' };
export const bot: Who = { id: 'agent:bot', kind: 'agent', name: 'Bot' };

/** The hidden list: never granted to `bot`. Its title, its id and its record's words must never reach it. */
export const HIDDEN = {
  title: 'Qorvex Vaultlist',
  id: 'qorvex-vaultlist',
  record: 'Zumbrality merger plan',
  note: 'Plinthwaxe only for the board',
  words: ['qorvex', 'vaultlist', 'zumbrality', 'plinthwaxe'],
} as const;

/** Is any word of the hidden list in `text` (any case)? */
export function leaksHidden(text: string): string[] {
  const lower = text.toLowerCase();
  return HIDDEN.words.filter((w) => lower.includes(w));
}

/**
 * `text` without what the asker itself sent (any string in `sent`, any case): a refusal may
 * quote the asker's own words back, which tells it nothing.
 */
export function withoutEchoes(text: string, sent: unknown): string {
  const strings: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string' || typeof v === 'number') strings.push(String(v), String(v).trim());
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(sent);
  let out = text;
  for (const s of strings.filter((x) => x.length >= 3).sort((a, b) => b.length - a.length)) {
    out = out.replace(new RegExp(s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), '⟨sent⟩');
  }
  return out;
}

export interface Laid {
  /** Records `bot` may change (Batches, gate on Approved). */
  batches: number[];
  /** Records `bot` may only read (Tasks). */
  tasks: number[];
  /** A record of Customers (`bot` writes; typed fields). */
  customer: number;
  /** The record of the hidden list. */
  hidden: number;
  /** A note `ann` wrote on a Batches record, and one `bot` wrote. */
  annNote: number;
  botNote: number;
}

/**
 * Batches (bot writes; a gate), Tasks (bot reads only), Customers (bot writes; typed fields),
 * and the hidden list (bot has nothing), each with records, notes and an attachment.
 */
export async function layBinder(store: Store): Promise<Laid> {
  await store.createList({ template: 'batches' }, ann);
  await store.createList({ template: 'tasks' }, ann);
  await store.createList({ template: 'customers' }, ann);
  await store.createList({ template: 'blank', title: HIDDEN.title }, ann);
  await store.grant('batches', bot.id, 'write', ann);
  await store.grant('tasks', bot.id, 'read', ann);
  await store.grant('customers', bot.id, 'write', ann);
  const batches = await inOrder([1, 2, 3], async (i) => (await store.add('batches', { title: `Batch ${i}`, note: `first note ${i}` }, bot)).id);
  await store.approve(batches[1]!, true, ann);
  const tasks = await inOrder([1, 2], async (i) => (await store.add('tasks', { title: `Task ${i}`, fields: { priority: 'High' } }, ann)).id);
  const customer = (await store.add('customers', { title: 'Acme', fields: { value: '1200' } }, bot)).id;
  const hidden = (await store.add(HIDDEN.id, { title: HIDDEN.record, note: HIDDEN.note }, ann)).id;
  const annNote = (await store.note(batches[0]!, 'a person\'s note', ann)).id;
  const botNote = (await store.note(batches[0]!, 'an agent\'s note', bot)).id;
  await store.attach(batches[0]!, { kind: 'link', ref: 'https://example.com/a', title: 'a link' }, bot);
  return { batches, tasks, customer, hidden, annNote, botNote };
}

const dumpers = new WeakMap<Database, { table: string; rows: Statement }[]>();

/**
 * Every table of the store, whole, as one digest: equal digests, equal stores. `except` leaves
 * out tables that change by design while nothing is done (the keeper's ledger of asks).
 */
export function dumpStore(db: Database, except: readonly string[] = []): string {
  let readers = dumpers.get(db);
  if (!readers) {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .pluck().all() as string[];
    readers = tables.map((table) => ({ table, rows: db.prepare(`SELECT * FROM "${table}"`).raw() }));
    dumpers.set(db, readers);
  }
  const hash = createHash('sha256');
  for (const { table, rows } of readers) {
    if (except.includes(table)) continue;
    hash.update(`\u0000${table}\u0000`);
    for (const row of rows.iterate() as Iterable<unknown[]>) {
      hash.update(JSON.stringify(row, (_k, v: unknown) => (Buffer.isBuffer(v) ? v.toString('hex') : typeof v === 'bigint' ? String(v) : v)));
      hash.update('\n');
    }
  }
  return hash.digest('hex');
}

/** The keeper's own tables: they record every ask taken, refused or not. */
export const LEDGER = ['asks', 'folder_marks', 'waits'] as const;

/** What only a bug says, by what it looks like. */
const BUG_WORDS: [RegExp, string][] = [
  [/\bundefined\b/, 'it says undefined'],
  [/\bNaN\b/, 'it says NaN'],
  [/\[object \w+\]/, 'it says [object …]'],
  [/\n\s+at |\b(Type|Range|Reference|Syntax)Error\b|^Error:/m, 'it holds a stack trace or an error name'],
  [/SQLITE_|sqlite|no such (table|column)|constraint failed|syntax error|fts5/i, 'it holds SQLite\'s words'],
];

/**
 * Why `text` is not a sentence a person or an agent can read, or [] when it is one: non-empty,
 * starting with a capital, a quote or #, ending with . ? or ), and free of what only a bug says
 * — unless the asker itself sent those words (`sent`), which a refusal may quote back.
 */
export function notASentence(text: unknown, sent: unknown = null): string[] {
  if (typeof text !== 'string' || text.trim() === '') return ['empty'];
  const problems: string[] = [];
  // A query's refusal ends by showing the query with a caret under the column it names.
  const said = text.replace(/\n  [^\n]*\n  *\^$/, '');
  if (!/^[\p{Lu}"'“«#]/u.test(said)) problems.push('it does not start with a capital, a quote or #');
  if (!/[.?)]$/.test(said)) problems.push('it does not end with . ? or )');
  const asked = JSON.stringify(sent ?? null) ?? '';
  for (const [pattern, problem] of BUG_WORDS) if (pattern.test(text) && !pattern.test(asked)) problems.push(problem);
  return problems;
}

/** The seed of this run's fuzzing: FUZZ_SEED to replay one, else a new one (said in the test's output). */
export function fuzzSeed(): number {
  const given = process.env.FUZZ_SEED;
  if (given && /^-?\d+$/.test(given)) return Number(given);
  return (Date.now() ^ (process.pid << 8)) | 0;
}

/* ---- values that reach deep into the operations, and junk that must be refused ---- */

export const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.string({ maxLength: 6 }), fc.integer()), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.constant(null)), { maxKeys: 3 }),
  fc.constantFrom('__proto__', 'constructor', 'toString', '', ' ', '\u0000', '\u001b[2J', '9'.repeat(30), '-0', '1e999'),
);

/** Words that name things in the laid binder, or almost do. */
export const words: fc.Arbitrary<string> = fc.constantFrom(
  '1', '#1', '2', '#2', '3', '4', '5', '6', '7', '#8', '9', '12', '0', '-1',
  'batches', 'Batches', 'tasks', 'TASKS', 'customers', 'blank', HIDDEN.title, HIDDEN.id, 'nowhere',
  'Proposed', 'Approved', 'approved', 'Doing', 'Done', 'To do', 'Review', 'Lead', 'Talking',
  'me', 'none', 'Bot', 'agent:bot', 'agent:spy', 'person:ann', 'ann',
  '2026-11-04', '2026-11-04 09:00', '2026-02-30', 'tomorrow',
  'https://example.com/a', 'https://x.example/b', 'a1', 'n1',
  'Priority', 'priority', 'Value', 'value', 'Branch', 'Company', 'High', 'Low',
  '30m', '2h', '1d', '45s', '0s', '2d', '60s', '5m', '10m',
  'board', 'table', 'en', 'fr', 'read', 'write',
  'Review=3', 'Doing=1', 'Approved=9', 'Done=Finished', 'X:number', 'Size:choice:S|M|L', 'Bad:kind', ':',
  'Zanzibar note', 'x'.repeat(301), 'y'.repeat(8001),
);

/** A value for one argument of the catalog: mostly plausible, sometimes junk. */
export function argValue(arg: ArgSpec): fc.Arbitrary<unknown> {
  switch (arg.kind) {
    case 'record': return fc.oneof(words, fc.integer({ min: -2, max: 12 }), junk);
    case 'text': case 'words': case 'due': return fc.oneof({ weight: 3, arbitrary: words }, { weight: 1, arbitrary: junk });
    case 'owners': case 'texts': return fc.oneof(fc.array(words, { maxLength: 3 }), words, junk);
    case 'fields': return fc.oneof(
      fc.dictionary(fc.constantFrom('Priority', 'priority', 'Value', 'value', 'Branch', 'Company', 'E-mail', 'nope', '__proto__'), fc.oneof(words, junk), { maxKeys: 2 }),
      fc.array(fc.constantFrom('Priority=High', 'Value=12', 'Value=lots', '=x', 'Branch=main', 'x'), { maxLength: 2 }),
      junk,
    );
    case 'choice': return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...(arg.choices ?? ['x'])) }, { weight: 1, arbitrary: junk });
    case 'flag': return fc.oneof(fc.boolean(), fc.constantFrom('true', 'false'), junk);
    case 'number': return fc.oneof(fc.integer({ min: -2, max: 12 }), fc.constantFrom('1', '2', 'x'), junk);
    default: {
      const never: never = arg.kind;
      throw new Error(`unknown argument kind ${String(never)}`);
    }
  }
}

/** Fields an ask may add to say it is someone else: never believed. */
export const FORGED = {
  by: ann, who: ann, person: 'ann', as: 'ann', kind: 'person', actor: 'person:ann', asker: ann, user: 'ann',
} as const;

export const forged: fc.Arbitrary<Record<string, unknown>> = fc.subarray(Object.keys(FORGED)).map((keys) =>
  Object.fromEntries(keys.map((k) => [k, FORGED[k as keyof typeof FORGED]])));

/** The arguments of an operation: any subset of its own, plausible or junk, with forged fields now and then. */
export function argsFor(spec: { args: Readonly<Record<string, ArgSpec>> }): fc.Arbitrary<Record<string, unknown>> {
  const shape: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, arg] of Object.entries(spec.args)) shape[name] = argValue(arg);
  return fc.tuple(fc.record(shape, { requiredKeys: [] }), forged).map(([own, lies]) => ({ ...own, ...lies }));
}
