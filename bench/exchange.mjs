// bench/exchange: how long `binder admin` takes to move a binder out and in, and to back it up,
// at 100,000 records with notes, moves and needs — each a real process timed from spawn to exit,
// as a person waits for it, the median of a few rounds. It prints figures; it asserts nothing.
//   node bench/exchange.mjs [--records 100000] [--rounds 3] [--json FILE]   (after `npm run build`)
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fillStore, LIST, writeTaskImport } from './fill.mjs';
import { BINDER, ROOT, load, machine, median, option, round, tempDir } from './lib.mjs';

const N = Number(option('--records', '100000'));
const ROUNDS = Number(option('--rounds', '3'));
const JSON_OUT = option('--json', '');
const PERSON = { id: 'person:bench', kind: 'person', name: 'bench' };

/** Notes on one record in four, a move on one in five, a need on one in fifty: history to carry. */
async function thicken(storeDir) {
  const { openStore } = await import(pathToFileURL(join(ROOT, 'build', 'src', 'store', 'index.js')).href);
  const store = openStore(storeDir);
  try {
    await store.transaction(async (tx) => {
      for (let id = 1; id <= N; id++) {
        if (id % 4 === 0) await tx.note(id, `checked on the staging server, record ${id}: the page loads in under a second`, PERSON);
        if (id % 5 === 0) await tx.move(id, 'Review', PERSON);
        if (id % 50 === 0 && id > 2) await tx.needs(id, [id - 1, id - 2], PERSON);
      }
    });
    await store.checkpoint();
  } finally {
    await store.close();
  }
}

function timed(args) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [BINDER, 'admin', '--as', 'bench', ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`binder admin ${args.join(' ')}: ${r.stderr}`);
  return ms;
}

const size = (path) => {
  const s = statSync(path);
  if (!s.isDirectory()) return s.size;
  return readdirSync(path).reduce((n, name) => n + statSync(join(path, name)).size, 0);
};

const dir = tempDir('binder-bench-exchange-');
const store = join(dir, 'store');
const t0 = Date.now();
await fillStore(store, N, []);
await thicken(store);
const taskFile = join(dir, 'tasks.json');
writeTaskImport(taskFile, N);
process.stderr.write(`A binder of ${N.toLocaleString('en')} records made in ${round((Date.now() - t0) / 1000, 1)} s; load ${load()}\n`);

const cases = [
  { name: 'export JSON', run: (i) => timed(['--store', store, 'export', '--out', join(dir, `out${i}.json`)]), out: (i) => join(dir, `out${i}.json`) },
  { name: 'export CSV', run: (i) => timed(['--store', store, 'export', '--format', 'csv', '--out', join(dir, `out${i}.csv`)]), out: (i) => join(dir, `out${i}.csv`) },
  { name: 'export Markdown', run: (i) => timed(['--store', store, 'export', '--format', 'markdown', '--out', join(dir, `md${i}`)]), out: (i) => join(dir, `md${i}`) },
  { name: 'import JSON (into an empty store)', run: (i) => timed(['--store', join(dir, `in${i}`), 'import', join(dir, 'out0.json')]) },
  {
    name: 'import Taskwarrior JSON', run: (i) => {
      const target = join(dir, `tw${i}`);
      timed(['--store', target, 'create-list', 'Tasks', '--template', LIST]);
      return timed(['--store', target, 'import', taskFile, '--into', 'tasks']);
    },
  },
  { name: 'backup', run: (i) => timed(['--store', store, 'backup', join(dir, `backup${i}.db`)]), out: (i) => join(dir, `backup${i}.db`) },
  { name: 'check', run: () => timed(['--store', store, 'check']) },
];

const results = {};
for (let round_ = 0; round_ < ROUNDS; round_++) {
  for (const c of cases) {
    const ms = c.run(round_);
    (results[c.name] ??= { ms: [], bytes: c.out ? size(c.out(round_)) : undefined }).ms.push(ms);
    // What a round made is removed, but for the file the imports read.
    if (round_ > 0 && c.out) rmSync(c.out(round_), { recursive: true, force: true });
    for (const name of ['in', 'tw']) rmSync(join(dir, `${name}${round_}`), { recursive: true, force: true });
  }
  process.stderr.write(`round ${round_ + 1} of ${ROUNDS} done; load ${load()}\n`);
}

const rows = Object.entries(results).map(([name, r]) => ({
  name, median: round(median(r.ms) / 1000, 2), all: r.ms.map((ms) => round(ms / 1000, 2)),
  ...(r.bytes !== undefined ? { mb: round(r.bytes / 1e6, 1) } : {}),
}));
process.stdout.write(`binder admin, ${N.toLocaleString('en')} records (notes on 1 in 4, a move on 1 in 5, needs on 1 in 50); ${machine()}; median of ${ROUNDS}\n`);
for (const r of rows) {
  process.stdout.write(`  ${r.name.padEnd(36)} ${String(r.median).padStart(7)} s   (${r.all.join(', ')})${r.mb !== undefined ? `   ${r.mb} MB` : ''}\n`);
}
if (JSON_OUT) writeFileSync(JSON_OUT, `${JSON.stringify({ records: N, machine: machine(), rows }, null, 2)}\n`);
