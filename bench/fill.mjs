// bench/fill: makes the benchmarks' data. A binder store of N records in one list (through the
// store's own `add`, in one transaction, so the search index and history are as a keeper would
// leave them), one agent folder granted that list, and the same records as a Taskwarrior import
// file. About 1 % of the records hold the rare word searched for. It writes only under the
// folder it is given (a temporary one), never in the repository.
//   node bench/fill.mjs DIR N      (after `npm run build`)
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './lib.mjs';

export const RARE = 'zephyrine';
export const LIST = 'tasks';
export const AGENT = 'Bench agent';
const PERSON = { id: 'person:bench', kind: 'person', name: 'bench' };

const built = (path) => import(pathToFileURL(join(ROOT, 'build', path)).href);

/**
 * A durable PostgreSQL server of the run's own (on a Unix socket, removed after) holding, in
 * database `name`, a Tasks list of `records` records the agent is granted, and the agent's token;
 * null, said, where PostgreSQL is not installed.
 */
export async function fillPostgres(name, records) {
  const { startCluster, postgresMissing } = await built('test/helpers/postgres.js');
  const missing = postgresMissing();
  if (missing) {
    process.stdout.write(`PostgreSQL cannot be measured here: ${missing}\n`);
    return null;
  }
  const cluster = await startCluster({ durable: true });
  const url = cluster.database(name);
  const { openPostgresStore } = await built('src/store/postgres-store.js');
  return { cluster, url, ...await fillPostgresAt(url, records, openPostgresStore) };
}

/**
 * The database at `url` given a Tasks list of `records` records the agent is granted, by the
 * store `openPostgresStore` opens (this build's, or an earlier checkout's for a bench beside it):
 * the agent's token and the seconds the records took.
 */
export async function fillPostgresAt(url, records, openPostgresStore) {
  const store = await openPostgresStore(url);
  await store.createList({ template: 'tasks' }, PERSON);
  const token = (await store.addToken(AGENT, {}, PERSON)).token;
  await store.grant('tasks', AGENT, 'write', PERSON);
  const t0 = performance.now();
  for (let from = 0; from < records; from += 1000) {
    await store.transaction(async (tx) => {
      for (let i = from; i < Math.min(records, from + 1000); i++) await tx.add('tasks', { title: `record ${i} of the bench` }, PERSON);
    });
  }
  const seconds = (performance.now() - t0) / 1000;
  await store.close();
  return { token, seconds };
}

const WORDS = ('page login report build queue cache index table screen form button server client '
  + 'update import export invoice order account review draft test fix error slow fast mobile web '
  + 'search filter sort column header footer menu theme colour font layout image upload backup '
  + 'restore deploy release branch merge commit config setting user team meeting call email note')
  .split(' ');

/** A small deterministic generator, so that every run makes the same records. */
function words(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    return WORDS[x % WORDS.length];
  };
}

/** Record i's title: four or five ordinary words, and the rare word in about 1 % of them. */
export function titleOf(i) {
  const next = words(i * 2654435761 + 7);
  const parts = [next(), next(), next(), next()];
  if (i % 100 === 37) parts.splice(2, 0, RARE);
  if (i % 3 === 0) parts.push(next());
  return `${parts.join(' ')} ${i}`;
}

/** States spread as a working list is: most to do, some doing or in review, a share done. */
const STATES = ['To do', 'To do', 'To do', 'Doing', 'Review', 'Done', 'Done'];
export const stateOf = (i) => STATES[i % STATES.length];

/**
 * The records, written as the store's own `add` writes them (the record, its search index row
 * and its history row) but with statements prepared once: `add` itself makes about 3,000
 * records a second, too slow for a million. The first one goes through `add`, as a check that
 * the shape written here is still the store's.
 */
async function addRecords(store, n) {
  if (n <= 0) return;
  const first = await store.add(LIST, { title: titleOf(0), state: stateOf(0) }, PERSON);
  const db = store.db;
  const ids = Object.fromEntries((await store.list(LIST, PERSON)).states.map((s) => [s.name, s.id]));
  const by = JSON.stringify(PERSON);
  const record = db.prepare(`INSERT INTO records (list, title, state, fields, owners, created, updated)
      VALUES (?, ?, ?, '{}', '[]', ?, ?)`);
  const index = db.prepare("INSERT INTO record_text (rowid, title, notes, fields) VALUES (?, ?, '', '')");
  const log = db.prepare("INSERT INTO log (at, by, op, list, record, change) VALUES (?, ?, 'add', ?, ?, ?)");
  const at = new Date().toISOString();
  const batch = 100_000;
  for (let from = 1; from < n; from += batch) {
    await store.transaction(async () => {
      for (let i = from; i < Math.min(n, from + batch); i++) {
        const title = titleOf(i);
        const state = ids[stateOf(i)];
        const id = Number(record.run(LIST, title, state, at, at).lastInsertRowid);
        index.run(id, title);
        log.run(at, by, LIST, id, JSON.stringify({ title, state }));
      }
    });
  }
  if (first.id !== 1) throw new Error(`the first record is #${first.id}, not #1`);
}

async function openStore(dir) {
  const store = await import(pathToFileURL(join(ROOT, 'build', 'src', 'store', 'index.js')).href);
  return store.openStore(dir);
}

/**
 * A binder store in `storeDir` with `n` records in one list, and each of `folders` registered
 * as an agent's folder ("Bench agent", "Bench agent 2", …) with write access to it.
 */
export async function fillStore(storeDir, n, folders) {
  const store = await openStore(storeDir);
  try {
    await store.createList({ template: LIST }, PERSON);
    for (const [i, folder] of folders.entries()) {
      mkdirSync(folder, { recursive: true });
      const name = i === 0 ? AGENT : `${AGENT} ${i + 1}`;
      await store.addSide(folder, name, PERSON);
      await store.grant(LIST, name, 'write', PERSON);
    }
    await addRecords(store, n);
    const found = (await store.search(RARE, PERSON, { limit: 500 })).length;
    const expected = Math.min(500, Math.floor((n + 62) / 100));
    if (found !== expected) throw new Error(`the filled store finds ${found} records with "${RARE}", not ${expected}`);
    await store.checkpoint();
  } finally {
    await store.close();
  }
}

/** The same records as a Taskwarrior import file (JSON), written to `file`. */
export function writeTaskImport(file, n) {
  const stamp = '20260101T000000Z';
  const tasks = [];
  for (let i = 0; i < n; i++) {
    const state = stateOf(i);
    tasks.push(JSON.stringify({
      uuid: uuidOf(i),
      description: titleOf(i),
      status: state === 'Done' ? 'completed' : 'pending',
      entry: stamp,
      modified: stamp,
      ...(state === 'Done' ? { end: stamp } : {}),
      ...(state === 'Doing' || state === 'Review' ? { start: stamp } : {}),
    }));
  }
  writeFileSync(file, `[${tasks.join(',\n')}]\n`);
}

/**
 * Fills `dir` with `store/` (a binder of `n` records), `agent/.binder` (a folder granted the
 * list, for writing) and `task-import.json`. Returns their paths.
 */
export async function fill(dir, n) {
  const storeDir = join(dir, 'store');
  const folder = join(dir, 'agent', '.binder');
  await fillStore(storeDir, n, [folder]);
  const taskImport = join(dir, 'task-import.json');
  writeTaskImport(taskImport, n);
  return { storeDir, folder, taskImport };
}

/** A fixed UUID per record number, so an import is the same every time. */
function uuidOf(i) {
  const hex = i.toString(16).padStart(12, '0');
  return `00000000-0000-4000-8000-${hex}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [dir, count] = process.argv.slice(2);
  if (!dir || !count) {
    process.stderr.write('usage: node bench/fill.mjs DIR N\n');
    process.exit(64);
  }
  const t0 = performance.now();
  const made = await fill(dir, Number(count));
  process.stdout.write(`${JSON.stringify({ ...made, ms: Math.round(performance.now() - t0) })}\n`);
}
