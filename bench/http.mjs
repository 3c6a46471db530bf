// bench/http: the keeper over HTTP on a binder of N records (100,000). A read (`get` of a random
// record) and a durable change (`note` on one, with an Idempotency-Key, as `binder --url` sends
// it) through REST and through MCP over HTTP, on kept-alive connections: the median and p99 of
// one client asking one at a time (node:http), then requests per second with 8 and 64 clients
// asking at once (autocannon, load-test.mjs).
// And `binder --url` from spawn to exit against `node -e 0`, side by side. Figures, not tests.
//   node bench/http.mjs [--records 100000] [--requests 2000] [--seconds 3] [--rounds 20] [--json FILE]
//                       [--before DIST_BIN] [--ab-rounds 3] [--workers 2]
// With --before (an earlier build's dist/bin/binder.js): REST reads and durable changes with 64
// clients, served in turn by that build and this one, each on a store of its own filled alike, rounds alternating, and
// the ratio now/before taken within each round. Then the same with one keeper process and with
// `--workers N` (N keepers of the store on one address; 1 skips it), rounds alternating.
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AGENT, fillStore } from './fill.mjs';
import { BINDER, admin, interleave, load, machine, median, medianRatio, option, percentile, round, serveHttp, tempDir } from './lib.mjs';
import { requestsPerSecond } from './load-test.mjs';

const RECORDS = Number(option('--records', '100000'));
const REQUESTS = Number(option('--requests', '2000'));
const SECONDS = Number(option('--seconds', '3'));
const ROUNDS = Number(option('--rounds', '20'));
const JSON_OUT = option('--json', '');
const BEFORE = option('--before', '');
const AB_ROUNDS = Number(option('--ab-rounds', '3'));
const WORKERS = Number(option('--workers', '2'));

const dir = tempDir('binder-bench-http-');
const storeDir = join(dir, 'store');
const folder = join(dir, 'agent', '.binder');
process.stdout.write(`bench/http on ${machine()}; load ${load()}\nfilling ${RECORDS.toLocaleString('en')} records…\n`);
await fillStore(storeDir, RECORDS, [folder]);
const nowToken = admin(storeDir, 'token', 'add', AGENT).split('\n')[0];
let token = nowToken;

/** The keeper of the bench's store (`bin`: this build or an earlier one), with `workers` processes. */
const serveStore = (bin = BINDER, workers = 1, store = storeDir, its = nowToken) => serveHttp(store, { bin, extra: workers > 1 ? ['--workers', String(workers)] : [] })
  .then((k) => ({ ...k, url: k.url.href.replace(/\/$/, ''), token: its }));
const keeper = await serveStore();
let { hostname, port } = new URL(keeper.url);
/** Asks go to the keeper `k` from now on, with its store's token. */
const use = (k) => {
  ({ hostname, port } = new URL(k.url));
  token = k.token;
};

/**
 * A store of its own for a build (`bin`: this one or an earlier one), filled by that checkout's own
 * bench/fill.mjs (a store of one build need not open in the other), and its agent's token. Beside
 * an earlier build, this build's keeper is given one too: the bench's own store has had the
 * changes of the rounds before noted on its records, whose pages a read then reads whole (0.84×
 * the earlier build's reads on a fresh store, 2026-12-07, with no change to the read between them).
 */
async function freshStore(bin, name) {
  const { fillStore: fillOf } = await import(pathToFileURL(join(dirname(bin), '..', '..', 'bench', 'fill.mjs')).href);
  const store = join(dir, `store-${name}`);
  await fillOf(store, RECORDS, [join(dir, `agent-${name}`, '.binder')]);
  const made = spawnSync(process.execPath, [bin, 'admin', '--store', store, '--as', 'bench', 'token', 'add', AGENT], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`the earlier build made no token: ${made.stderr}`);
  return { store, token: made.stdout.split('\n')[0] };
}

/** One request on `agent`'s kept-alive connection: resolves with its status once its body is read. */
function ask(agent, method, path, body, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = request({ agent, host: hostname, port, method, path, headers: { authorization: `Bearer ${token}`, ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', reject);
    req.end(body);
  });
}
const pick = () => 1 + Math.floor(Math.random() * RECORDS);
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
const call = (name, args) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
/** Each kind's request, made afresh: a random record, a new Idempotency-Key for a REST change. */
const SENT = {
  // The floor: a round trip through Node's HTTP and the app, with no token nor binder behind it.
  'healthz': () => ({ method: 'GET', path: '/healthz' }),
  'REST read': () => ({ method: 'GET', path: `/api/get?id=${pick()}` }),
  'REST change': () => ({ method: 'POST', path: '/api/note', body: JSON.stringify({ id: pick(), text: 'benched' }), headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() } }),
  'MCP read': () => ({ method: 'POST', path: '/mcp', body: call('get', { id: String(pick()) }), headers: MCP_HEADERS }),
  'MCP change': () => ({ method: 'POST', path: '/mcp', body: call('note', { id: String(pick()), text: 'benched' }), headers: MCP_HEADERS }),
};
const KINDS = Object.fromEntries(Object.entries(SENT).map(([kind, make]) => [kind, (agent) => {
  const { method, path, body, headers } = make();
  return ask(agent, method, path, body, headers);
}]));

/** One client asking one at a time: each request's time, in ms. */
async function latency(kind) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const times = [];
  for (let i = 0; i < 200 + REQUESTS; i++) {
    const t0 = process.hrtime.bigint();
    const status = await KINDS[kind](agent);
    if (status !== 200) throw new Error(`${kind}: status ${status}`);
    if (i >= 200) times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  agent.destroy();
  return { medianMs: round(median(times), 3), p99Ms: round(percentile(times, 99), 3) };
}

/** `clients` clients, each on its own connection asking one at a time, for SECONDS: requests a second. */
async function throughput(kind, clients) {
  return Math.round(await requestsPerSecond({ url: `http://${hostname}:${port}`, token, clients, seconds: SECONDS, make: SENT[kind] }));
}

const results = { records: RECORDS, machine: machine(), load: { start: load() }, latency: {}, throughput: {} };
for (const kind of Object.keys(KINDS)) {
  results.latency[kind] = await latency(kind);
  process.stdout.write(`${kind.padEnd(12)} median ${results.latency[kind].medianMs} ms, p99 ${results.latency[kind].p99Ms} ms\n`);
}
for (const kind of Object.keys(KINDS).filter((k) => k !== 'healthz')) {
  results.throughput[kind] = {};
  for (const clients of [8, 64]) {
    results.throughput[kind][clients] = await throughput(kind, clients);
    process.stdout.write(`${kind.padEnd(12)} ${String(clients).padStart(2)} clients: ${results.throughput[kind][clients].toLocaleString('en')} requests/s\n`);
  }
}

// binder --url's start-up, side by side with node -e 0 (and the same ask through the folder).
const env = { ...process.env, BINDER_URL: keeper.url, BINDER_TOKEN: token };
delete env.BINDER_DIR;
const times = interleave([
  { name: 'node -e 0', argv: [process.execPath, '-e', '0'] },
  { name: 'binder --url get', argv: [process.execPath, BINDER, 'get', '12'], env },
  { name: 'binder get (folder)', argv: [process.execPath, BINDER, '--dir', folder, 'get', '12'] },
], { rounds: ROUNDS });
results.start = {
  floorMs: round(median(times['node -e 0']), 1),
  urlMs: round(median(times['binder --url get']), 1),
  folderMs: round(median(times['binder get (folder)']), 1),
  urlToFloor: round(medianRatio(times['binder --url get'], times['node -e 0'])),
  folderToFloor: round(medianRatio(times['binder get (folder)'], times['node -e 0'])),
};
process.stdout.write(`binder --url get ${results.start.urlMs} ms (${results.start.urlToFloor}× node -e 0 at ${results.start.floorMs} ms); through the folder ${results.start.folderMs} ms (${results.start.folderToFloor}×)\n`);
await keeper.stop();

/**
 * REST reads and durable changes with 64 clients, the store served in turn by two ways of serving
 * it (`ways`: [name, start] each, the base first), AB_ROUNDS rounds alternating: the medians of
 * each and the ratio of the second to the first, taken within each round.
 */
async function sideBySide(ways, title) {
  const got = {};
  for (let r = 0; r < AB_ROUNDS; r++) {
    // Which goes first alternates, round by round.
    for (const [name, start] of r % 2 ? [...ways].reverse() : ways) {
      const k = await start();
      use(k);
      await throughput('REST read', 8); // warming up, not kept
      for (const kind of ['REST read', 'REST change']) ((got[kind] ??= {})[name] ??= []).push(await throughput(kind, 64));
      await k.stop();
    }
  }
  const [[base], [other]] = ways;
  const out = { rounds: AB_ROUNDS };
  for (const [kind, by] of Object.entries(got)) {
    out[kind] = { [base]: Math.round(median(by[base])), [other]: Math.round(median(by[other])), ratio: round(medianRatio(by[other], by[base])) };
    process.stdout.write(`${kind.padEnd(12)} 64 clients, ${title} (${AB_ROUNDS} rounds): ${out[kind][other].toLocaleString('en')} requests/s ${other}, `
      + `${out[kind][base].toLocaleString('en')} ${base}, ${out[kind].ratio}× (per round ${by[other].map((n, i) => round(n / by[base][i])).join(', ')})\n`);
  }
  return out;
}
// The same store served in turn by the earlier build and this one.
if (BEFORE) {
  const [earlier, now] = [await freshStore(BEFORE, 'before'), await freshStore(BINDER, 'now')];
  results.beside = {
    before: BEFORE,
    ...await sideBySide([['before', () => serveStore(BEFORE, 1, earlier.store, earlier.token)], ['now', () => serveStore(BINDER, 1, now.store, now.token)]], 'beside the earlier build'),
  };
}
// One keeper process, then WORKERS of them on the same store and address.
if (WORKERS > 1) results.workers = { workers: WORKERS, ...await sideBySide([['one', () => serveStore()], ['workers', () => serveStore(BINDER, WORKERS)]], `--workers ${WORKERS} beside one process`) };
results.load.end = load();
if (JSON_OUT) writeFileSync(JSON_OUT, `${JSON.stringify(results, null, 2)}\n`);
