// bench/query: a query of three terms of the query language (a word, a state, a negated field)
// beside `search` for one word, at N records (SQLite, one Tasks list made by fill.mjs), in one
// process through the store itself: the median of each, taken in turn, and their ratio. Figures,
// not tests (the aim: the query within 1.3× of the one-word search at 100,000 records).
//   node bench/query.mjs [--sizes 100000] [--rounds 30]      (after `npm run build`)
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fillStore, RARE } from './fill.mjs';
import { load, median, option, ROOT, round, tempDir } from './lib.mjs';

const PERSON = { id: 'person:bench', kind: 'person', name: 'bench' };
const sizes = String(option('--sizes', '100000')).split(',').map(Number);
const rounds = Number(option('--rounds', 30));
const QUERY = `${RARE} state:"To do" -field:Priority=High`;

async function timed(fn) {
  const t0 = performance.now();
  const found = await fn();
  return { ms: performance.now() - t0, found: found.length };
}

for (const n of sizes) {
  const dir = tempDir();
  const storeDir = join(dir, 'store');
  await fillStore(storeDir, n, []);
  const { openStore } = await import(pathToFileURL(join(ROOT, 'build', 'src', 'store', 'index.js')).href);
  const store = await openStore(storeDir);
  const word = [];
  const query = [];
  let found = { word: 0, query: 0 };
  for (let i = 0; i < rounds + 3; i++) {
    const a = await timed(() => store.search(RARE, PERSON, { limit: 50 }));
    const b = await timed(() => store.search(QUERY, PERSON, { limit: 50 }));
    if (i < 3) continue;
    word.push(a.ms);
    query.push(b.ms);
    found = { word: a.found, query: b.found };
  }
  await store.close();
  const w = median(word);
  const q = median(query);
  process.stdout.write(`${n} records: search "${RARE}" ${round(w)} ms (${found.word} hits); `
    + `query '${QUERY}' ${round(q)} ms (${found.query} hits); ${round(q / w)}× (load ${load()})\n`);
}
