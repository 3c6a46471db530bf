// bench/chatty: what a note and an edit of the title cost on a record that already has many notes
// (an agent that reports on one long-lived record for weeks), on SQLite and on PostgreSQL (a
// durable server started for the run), in one process through the store itself. At each count
// of notes: the median of 40 notes on that record, of 20 edits of its title, of 20 searches that
// find it by a word of its fields (its snippet looks over its notes), and of 40 notes on a record
// of few notes beside it. Then a record flooded with made-up words: a short note on it. Then
// searches in a binder of many chatty records (--binder R,C,K: R records, C of them with K notes
// each; SQLite keeps a record's first notes in its row and the later ones in rows of their own):
// the median of 15 of each search. Figures, not tests.
//   node bench/chatty.mjs [--notes 0,100,1000,5000] [--binder 5000,300,200] [--before BUILD_DIR] [--json FILE]
// With --before (an earlier checkout's root, built: its build/ is used): the same on its store,
// on a database of its own, each count measured on both builds in turn.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, load, machine, median, option, round, tempDir } from './lib.mjs';

const COUNTS = option('--notes', '0,100,1000,5000').split(',').map(Number);
const [RECORDS, CHATTY, EACH] = option('--binder', '5000,300,200').split(',').map(Number);
const BEFORE = option('--before', '');
const JSON_OUT = option('--json', '');
const ANN = { id: 'person:ann', kind: 'person', name: 'Ann' };
const TEXT = 'the agent ran the batch again and saw the same timeout on the third step of the import';

const from = (root, path) => import(pathToFileURL(join(root, 'build', path)).href);
const { startCluster, postgresMissing } = await from(ROOT, 'test/helpers/postgres.js');
const missing = postgresMissing();
const cluster = missing ? null : await startCluster({ durable: true });
process.stdout.write(`bench/chatty on ${machine()}; load ${load()}${missing ? `; PostgreSQL cannot be measured here: ${missing}` : ''}\n`);

/** A binder of one list, a record to gather notes and one beside it, on `engine`, of the build at `root`. */
async function binder(root, engine, name) {
  const store = engine === 'sqlite'
    ? await (await from(root, 'src/store/index.js')).openStore(join(tempDir('binder-bench-chatty-'), 'binder.db'))
    : await (await from(root, 'src/store/postgres-store.js')).openPostgresStore(cluster.database(name));
  await store.createList({ template: 'tasks' }, ANN);
  const chatty = await store.add('tasks', { title: 'a long-lived record', fields: { branch: 'zephyrine' } }, ANN);
  const quiet = await store.add('tasks', { title: 'a record of few notes' }, ANN);
  return { root, engine, store, chatty: chatty.id, quiet: quiet.id, notes: 0 };
}

const timed = async (n, fn) => {
  const times = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    times.push(performance.now() - t);
  }
  return round(median(times), 2);
};

const roots = BEFORE ? [['now', ROOT], ['before', BEFORE]] : [['now', ROOT]];
const binders = [];
for (const engine of cluster ? ['sqlite', 'postgres'] : ['sqlite']) {
  for (const [which, root] of roots) binders.push({ which, ...(await binder(root, engine, `chatty_${engine}_${which}`)) });
}
const results = { machine: machine(), load: load(), rows: [] };
for (const count of COUNTS) {
  for (const b of binders) {
    // Filled to `count` notes, 500 a transaction.
    while (b.notes < count) {
      await b.store.transaction(async (tx) => {
        for (let i = 0; i < 500 && b.notes < count; i++, b.notes++) await tx.note(b.chatty, `${TEXT} ${b.notes}`, ANN);
      });
    }
    const note = await timed(40, (i) => b.store.note(b.chatty, `${TEXT} again ${i}`, ANN));
    const edit = await timed(20, (i) => b.store.edit(b.chatty, { title: `a long-lived record, ${count} notes, ${i}` }, ANN));
    const beside = await timed(40, (i) => b.store.note(b.quiet, `${TEXT} beside ${i}`, ANN));
    b.notes += 40;
    // A search that finds the record by a word of its fields alone: its snippet looks over every note.
    const search = await timed(20, async () => {
      if ((await b.store.search('zephyrine', ANN)).length !== 1) throw new Error('the record was not found');
    });
    results.rows.push({ engine: b.engine, build: b.which, notes: count, noteMs: note, editMs: edit, besideMs: beside, searchMs: search });
    process.stdout.write(`${b.engine.padEnd(8)} ${b.which.padEnd(6)} a record of ${String(count).padStart(5)} notes: a note ${note} ms, an edit of its title ${edit} ms, a search finding it ${search} ms; a note on a record of few notes ${beside} ms\n`);
  }
}
// A record an agent flooded: 125 notes of 8,000 characters of words made up for it (1,000,000
// characters), then the median of 15 short notes on it.
let seed = 1;
const madeUp = () => {
  const words = [];
  while (words.join(' ').length < 7990) words.push((seed++ * 2654435761 % 4294967296).toString(36).slice(0, 6));
  return words.join(' ').slice(0, 8000);
};
results.flood = [];
for (const b of binders) {
  const flooded = (await b.store.add('tasks', { title: 'a flooded record' }, ANN)).id;
  await b.store.transaction(async (tx) => {
    for (let i = 0; i < 125; i++) await tx.note(flooded, madeUp(), ANN);
  });
  const note = await timed(15, (i) => b.store.note(flooded, `a short note ${i}`, ANN));
  results.flood.push({ engine: b.engine, build: b.which, noteMs: note });
  process.stdout.write(`${b.engine.padEnd(8)} ${b.which.padEnd(6)} a record flooded with 1,000,000 characters of made-up words: a short note ${note} ms\n`);
}
for (const b of binders) await b.store.close();

// A binder of many chatty records, made through the store (notes 300 a transaction, a round of
// one note on each chatty record at a time, as agents reporting on their records would).
const WORDS = 'page login report build queue cache index table screen form button server client update import export'.split(' ');
const SEARCHES = ['zephyrine', 'quartzite', 'login', 'login report', 'saw again', 'login zephyrine', 'step 150'];
results.searches = [];
for (const engine of cluster ? ['sqlite', 'postgres'] : ['sqlite']) {
  for (const [which, root] of roots) {
    const store = engine === 'sqlite'
      ? await (await from(root, 'src/store/index.js')).openStore(join(tempDir('binder-bench-chatty-'), 'binder.db'))
      : await (await from(root, 'src/store/postgres-store.js')).openPostgresStore(cluster.database(`chatty_binder_${engine}_${which}`));
    await store.createList({ template: 'tasks' }, ANN);
    const gap = Math.floor(RECORDS / CHATTY);
    for (let from = 1; from <= RECORDS; from += 1000) {
      await store.transaction(async (tx) => {
        for (let i = from; i < Math.min(RECORDS + 1, from + 1000); i++) {
          await tx.add('tasks', { title: `${WORDS[i % WORDS.length]} ${WORDS[(i * 3) % WORDS.length]} ${i % 100 === 37 ? 'zephyrine ' : ''}record ${i}` }, ANN);
        }
      });
    }
    for (let k = 0; k < EACH; k++) {
      await store.transaction(async (tx) => {
        for (let c = 1; c <= CHATTY; c++) {
          const i = c * gap;
          await tx.note(i, `${WORDS[(i + k) % WORDS.length]} ${WORDS[(i * 7 + k) % WORDS.length]} saw it again ${k % 50 === 1 ? 'quartzite ' : ''}step ${k}`, ANN);
        }
      });
    }
    const row = { engine, build: which, records: RECORDS, chatty: CHATTY, notes: EACH };
    for (const words of SEARCHES) {
      row[words] = await timed(15, () => store.search(words, ANN));
    }
    results.searches.push(row);
    process.stdout.write(`${engine.padEnd(8)} ${which.padEnd(6)} searches among ${RECORDS} records, ${CHATTY} of ${EACH} notes: ${SEARCHES.map((w) => `"${w}" ${row[w]} ms`).join(', ')}\n`);
    await store.close();
  }
}
await cluster?.stop();
if (JSON_OUT) writeFileSync(JSON_OUT, `${JSON.stringify(results, null, 2)}\n`);
process.exit(0);
