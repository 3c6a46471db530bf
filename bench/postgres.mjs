// bench/postgres: the binder on PostgreSQL through one and two keepers on one database, side by
// side with the SQLite store, in the same run, on binders of N records (10,000) each. Over HTTP
// (REST, kept-alive connections): a read (`get` of a random record) and a durable change (`note`
// with an Idempotency-Key) — median and p99 of one client asking one at a time (node:http) — then
// reads and durable changes per second with 16 clients asking at once, spread over the keepers
// (autocannon, load-test.mjs). The
// PostgreSQL server is a durable one (fsync on), on a Unix socket, started for the run and
// removed after. Figures, not tests.
//   node bench/postgres.mjs [--records 10000] [--requests 1000] [--warm 1000] [--seconds 5] [--clients 16] [--json FILE]
//                           [--before DIST_BIN [--ab-rounds 3]]
// With --before (an earlier build's dist/bin/binder.js): on PostgreSQL through one and two keepers,
// the read's median and the durable changes a second, served in turn by that build and this one,
// each on a database of its own on the same server, both filled for this (the earlier one by that
// checkout's own store: a keeper refuses a database a newer Binder migrated), which goes first
// alternating, the ratio now/before taken within each round.
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AGENT, fillPostgres, fillPostgresAt, fillStore } from './fill.mjs';
import { BINDER, ROOT, admin, load, machine, median, medianRatio, option, percentile, round, serveHttp, tempDir } from './lib.mjs';
import { requestsPerSecond } from './load-test.mjs';

const RECORDS = Number(option('--records', '10000'));
const REQUESTS = Number(option('--requests', '1000'));
const WARM = Number(option('--warm', '1000'));
const SECONDS = Number(option('--seconds', '5'));
const CLIENTS = Number(option('--clients', '16'));
const JSON_OUT = option('--json', '');
const BEFORE = option('--before', '');
const AB_ROUNDS = Number(option('--ab-rounds', '3'));
const BIN = BINDER;

const dir = tempDir('binder-bench-pg-');
process.stdout.write(`bench/postgres on ${machine()}; load ${load()}\n`);

// SQLite: the same records, filled as bench/fill makes them.
const sqliteDir = join(dir, 'sqlite');
await fillStore(sqliteDir, RECORDS, [join(dir, 'agent', '.binder')]);
const sqliteToken = admin(sqliteDir, 'token', 'add', AGENT).split('\n')[0];

// PostgreSQL: a durable server of the run's own.
const filled = await fillPostgres('bench', RECORDS);
if (!filled) process.exit(0);
const { cluster, url, token: pgToken } = filled;
process.stdout.write(`filled ${RECORDS.toLocaleString('en')} records in PostgreSQL in ${round(filled.seconds, 1)} s\n`);

/** One request on `agent`'s kept-alive connection to `to`: resolves with its status once its body is read. */
function ask(to, token, agent, method, path, body, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = request({ agent, host: to.hostname, port: to.port, method, path, headers: { authorization: `Bearer ${token}`, ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', reject);
    req.end(body);
  });
}
const pick = () => 1 + Math.floor(Math.random() * RECORDS);
/** Each kind's request, made afresh: a random record, a new Idempotency-Key for a change. */
const SENT = {
  read: () => ({ method: 'GET', path: `/api/get?id=${pick()}` }),
  change: () => ({ method: 'POST', path: '/api/note', body: JSON.stringify({ id: pick(), text: 'benched' }), headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() } }),
};
const KINDS = Object.fromEntries(Object.entries(SENT).map(([kind, make]) => [kind, (to, token, agent) => {
  const { method, path, body, headers } = make();
  return ask(to, token, agent, method, path, body, headers);
}]));

/**
 * One client asking one at a time, to the keepers in turn: each request's time, in ms. The first
 * WARM asks of each keeper are not timed: a keeper just started answers its first thousand or so
 * slower (its code not yet compiled by V8 for what it does: 2.1 ms falling to 1.2 ms here), and a
 * keeper serves for hours.
 */
async function latency(keepers, token, kind) {
  const agents = keepers.map(() => new Agent({ keepAlive: true, maxSockets: 1 }));
  const times = [];
  const warm = WARM * keepers.length;
  for (let i = 0; i < warm + REQUESTS; i++) {
    const k = i % keepers.length;
    const t = process.hrtime.bigint();
    const status = await KINDS[kind](keepers[k].url, token, agents[k]);
    if (status !== 200) throw new Error(`${kind}: status ${status}`);
    if (i >= warm) times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  for (const a of agents) a.destroy();
  return { medianMs: round(median(times), 3), p99Ms: round(percentile(times, 99), 3) };
}

/** A process's CPU time so far, in µs (Linux: /proc; elsewhere 0). */
function cpuOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000; // clock ticks of 10 ms
  } catch {
    return 0;
  }
}
/** The database server's processes (the postmaster and its backends). */
const serverPids = () => (existsSync('/proc') ? readdirSync('/proc').filter((d) => /^\d+$/.test(d)).filter((d) => {
  try {
    return readFileSync(`/proc/${d}/comm`, 'utf8').startsWith('postgres');
  } catch {
    return false;
  }
}) : []);
/** CPU spent so far by each of the database server's processes, by its id. */
const serverCpu = () => new Map(serverPids().map((p) => [p, cpuOf(p)]));
/**
 * CPU spent meanwhile by the keepers, the database server and this client, in µs each. A server
 * process counts from its own first reading (or its start): a pool's idle connection that ends
 * meanwhile takes its process with it, and a sum of all then against all now counted its whole
 * life as negative.
 */
function cpuMeter(keepers) {
  const sum = (pids) => pids.reduce((a, p) => a + cpuOf(p), 0);
  const keeping = keepers.map((k) => k.pid);
  const k0 = sum(keeping);
  const s0 = serverCpu();
  const c0 = process.cpuUsage();
  return () => {
    const c = process.cpuUsage(c0);
    let server = 0;
    for (const [pid, spent] of serverCpu()) server += spent - (s0.get(pid) ?? 0);
    return { keepers: sum(keeping) - k0, server, client: c.user + c.system };
  };
}
/** What a request cost each side in CPU, µs, from a meter's reading. */
const perRequest = (cpu, n) => Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, Math.round(v / n)]));

/** CLIENTS clients, spread over the keepers, each asking one at a time for SECONDS (autocannon): requests a second. */
async function throughput(keepers, token, kind, cpu) {
  const meter = cpuMeter(keepers);
  const rates = await Promise.all(keepers.map((k, i) => requestsPerSecond({
    url: k.url.origin, token, seconds: SECONDS, make: SENT[kind],
    clients: Math.floor(CLIENTS / keepers.length) + (i < CLIENTS % keepers.length ? 1 : 0),
  })));
  const rate = rates.reduce((a, b) => a + b, 0);
  if (cpu) Object.assign(cpu, perRequest(meter(), rate * SECONDS));
  return Math.round(rate);
}

const setups = [
  ['SQLite, 1 keeper', [sqliteDir], sqliteToken],
  ['PostgreSQL, 1 keeper', [url], pgToken],
  ['PostgreSQL, 2 keepers', [url, url], pgToken],
];
const results = { records: RECORDS, clients: CLIENTS, machine: machine(), load: { start: load() }, setups: {} };
for (const [name, stores, token] of setups) {
  const keepers = [];
  for (const store of stores) keepers.push(await serveHttp(store));
  const changeCpuUs = {};
  const r = {
    read: await latency(keepers, token, 'read'),
    change: await latency(keepers, token, 'change'),
    readsPerSecond: await throughput(keepers, token, 'read'),
    changesPerSecond: await throughput(keepers, token, 'change', changeCpuUs),
    changeCpuUs,
  };
  results.setups[name] = r;
  process.stdout.write(`${name.padEnd(22)} read median ${r.read.medianMs} ms, p99 ${r.read.p99Ms} ms; change median ${r.change.medianMs} ms, p99 ${r.change.p99Ms} ms; `
    + `${CLIENTS} clients: ${r.readsPerSecond.toLocaleString('en')} reads/s, ${r.changesPerSecond.toLocaleString('en')} durable changes/s `
    + `(CPU a change: keepers ${changeCpuUs.keepers} µs, database server ${changeCpuUs.server} µs, clients ${changeCpuUs.client} µs)\n`);
  for (const k of keepers) await k.stop();
}
if (BEFORE) {
  // The earlier build and this one in turn, each on a database of its own filled alike, rounds alternating.
  results.beside = { before: BEFORE, rounds: AB_ROUNDS };
  // The earlier build on a database of its own on the same server, filled by its own store: a
  // database of one build need not open in the other.
  const beforeUrl = cluster.database('bench_before');
  const { openPostgresStore: openBefore } = await import(pathToFileURL(join(dirname(BEFORE), '..', '..', 'build', 'src', 'store', 'postgres-store.js')).href);
  const earlier = { url: beforeUrl, ...await fillPostgresAt(beforeUrl, RECORDS, openBefore) };
  // This build on a database filled now too, as the earlier one's was: the run's own database has
  // the notes of the figures above (a record read then has more to read), and the same build
  // against itself on the two read 1.12–1.16× slower there.
  const nowUrl = cluster.database('bench_now');
  const { openPostgresStore: openNow } = await import(pathToFileURL(join(ROOT, 'build', 'src', 'store', 'postgres-store.js')).href);
  const current = { url: nowUrl, ...await fillPostgresAt(nowUrl, RECORDS, openNow) };
  for (const [name, stores] of [['PostgreSQL, 1 keeper', 1], ['PostgreSQL, 2 keepers', 2]]) {
    const got = { read: { before: [], now: [] }, changes: { before: [], now: [] } };
    for (let r = 0; r < AB_ROUNDS; r++) {
      // Which build goes first alternates: the second of a round was measured slower, the same
      // build against itself through two keepers 1.07× with a fixed order.
      const builds = [['before', BEFORE], ['now', BIN]];
      for (const [which, bin] of r % 2 ? builds.reverse() : builds) {
        const keepers = [];
        const its = which === 'before' ? earlier : current;
        for (let k = 0; k < stores; k++) keepers.push(await serveHttp(its.url, { bin }));
        got.read[which].push((await latency(keepers, its.token, 'read')).medianMs);
        got.changes[which].push(await throughput(keepers, its.token, 'change'));
        for (const k of keepers) await k.stop();
      }
    }
    const r = results.beside[name] = {
      readMedianMs: { before: round(median(got.read.before), 3), now: round(median(got.read.now), 3), ratio: round(medianRatio(got.read.now, got.read.before)) },
      changesPerSecond: { before: Math.round(median(got.changes.before)), now: Math.round(median(got.changes.now)), ratio: round(medianRatio(got.changes.now, got.changes.before)) },
    };
    process.stdout.write(`${name.padEnd(22)} beside the earlier build (${AB_ROUNDS} rounds): read median ${r.readMedianMs.now} ms now, ${r.readMedianMs.before} ms before (${r.readMedianMs.ratio}×); `
      + `${r.changesPerSecond.now.toLocaleString('en')} durable changes/s now, ${r.changesPerSecond.before.toLocaleString('en')} before (${r.changesPerSecond.ratio}×)\n`);
  }
}
results.load.end = load();
const two = results.setups['PostgreSQL, 2 keepers'];
const one = results.setups['PostgreSQL, 1 keeper'];
process.stdout.write(`budgets: ≥ 2,000 durable changes/s through two keepers: ${two.changesPerSecond.toLocaleString('en')} (${two.changesPerSecond >= 2000 ? 'met' : 'MISSED'}); `
  + `a read ≤ 2 ms median over HTTP: ${one.read.medianMs} ms through one keeper, ${two.read.medianMs} ms through two (${Math.max(one.read.medianMs, two.read.medianMs) <= 2 ? 'met' : 'MISSED'})\n`);
if (JSON_OUT) writeFileSync(JSON_OUT, JSON.stringify(results, null, 2));
await cluster.stop();
