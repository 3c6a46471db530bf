// How soon a held `binder wait` wakes after a person approves its record: from the moment the
// approval is committed to the moment the waiting `binder` process prints it. Two paths: the
// person at the screen (keeper.act, the keeper's own change events) and a person's change from
// another connection (as `binder admin` makes it: seen through PRAGMA data_version). Prints
// figures; asserts nothing.
//   node bench/wait.mjs [RUNS]     (after npm run build)
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { BINDER, ROOT, machine, median, percentile, round, tempDir } from './lib.mjs';

const built = (path) => import(pathToFileURL(join(ROOT, 'build', 'src', path)).href);
const { openStore } = await built('store/index.js');
const { createKeeper, personWho, agentWho } = await built('keeper/keeper.js');

const RUNS = Number(process.argv[2] ?? 20);
const root = tempDir();
const storeDir = join(root, 'store');
const dir = join(root, 'agent', '.binder');
mkdirSync(dir, { recursive: true });
const ann = personWho('Ann');
const claude = agentWho('Claude');

const store = openStore(storeDir);
const other = openStore(storeDir);
await store.createList({ template: 'batches' }, ann);
await store.addSide(dir, 'Claude', ann);
await store.grant('batches', 'Claude', 'write', ann);
const keeper = createKeeper({ store, log: () => {} });
await keeper.start();
const held = () => store.db.prepare('SELECT count(*) FROM waits').pluck().get();

async function until(check, ms = 20_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 1));
  }
}

/** One wait on a fresh record, woken by `approve(id)`: ms from the approval to the agent's line. */
async function once(approve) {
  const id = (await store.add('batches', { title: 'a record to approve' }, ann)).id;
  await store.brief(claude); // the add is not what this wait is for
  const child = spawn(process.execPath, [BINDER, 'wait', String(id), '--timeout', '30s'], {
    env: { ...process.env, BINDER_DIR: dir }, stdio: ['ignore', 'pipe', 'inherit'],
  });
  const woke = new Promise((done) => child.stdout.once('data', () => done(performance.now())));
  const exited = new Promise((done) => child.on('exit', done));
  await until(() => held() === 1);
  // Once the keeper has taken the wait up and looked once (a turn or two after the commit), a
  // change reaches it only by its events or its data_version look, which is what is timed; the
  // pause is drawn at random so the approval falls anywhere in the look's period.
  await new Promise((r) => setTimeout(r, 150 + Math.random() * 100));
  const t0 = performance.now();
  void approve(id);
  const t1 = await woke;
  await exited;
  return t1 - t0;
}

const paths = [
  ['a person at the screen (keeper.act)', (id) => keeper.act('approve', { id }, ann)],
  ['a person from another process (binder admin; onOtherChange)', (id) => other.approve(id, true, ann)],
];
console.log(`wait: wake-up after a person's approval, ${RUNS} runs per path; ${machine()}`);
const results = [];
for (const [name, approve] of paths) {
  await once(approve); // warm-up
  const times = [];
  for (let i = 0; i < RUNS; i++) times.push(await once(approve));
  results.push({ name, median: round(median(times), 1), p90: round(percentile(times, 90), 1), min: round(Math.min(...times), 1), max: round(Math.max(...times), 1) });
}
for (const r of results) console.log(`  ${r.name}: median ${r.median} ms, p90 ${r.p90} ms, min ${r.min} ms, max ${r.max} ms`);
await keeper.close();
await store.close();
await other.close();
