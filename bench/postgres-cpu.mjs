// bench/postgres-cpu: the processor time one request costs on PostgreSQL, by process — the server
// answering it (a keeper of this build, or a bare server of floor-server.mjs), PostgreSQL's own
// processes (all of them: the backends, the WAL writer), and the client (autocannon, here) — read
// from /proc's counters around each setup's seconds. On a machine of two cores shared by all three,
// a request's rate follows their sum; this says where it goes. Rounds alternate the setups; the
// first round is thrown away (warm-up). With --before DIST_BIN (an earlier build's
// dist/bin/binder.js), that build's keeper is a setup too, on the same database. Linux alone
// (/proc). Figures, not tests.
// With --history N, each record is given N history rows more before the rounds (written straight
// to the log, as edits), for the reads of a busy record: the faces ask a page of ten.
// With --layers (a read), the same keeper answers its `/healthz` (no token, no database) and
// `/api/lists` too, and a bare `node:http` server a fixed answer of a page's size (floor-server's
// `hello`): what a read's time is made of, layer by layer, in the same rounds.
//   node bench/postgres-cpu.mjs [--kind read|note] [--bare read,read-whole] [--before DIST_BIN]
//        [--records 10000] [--seconds 5] [--rounds 3] [--clients 16] [--history 0] [--layers]
import { randomUUID } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import pg from 'pg';
import { fillPostgres } from './fill.mjs';
import { floorServer, load, machine, median, medianRatio, option, round, serveHttp } from './lib.mjs';
import { requestsPerSecond } from './load-test.mjs';

const KIND = option('--kind', 'read');
const BARE = option('--bare', KIND === 'read' ? 'read,read-whole' : 'one').split(',').filter(Boolean);
const RECORDS = Number(option('--records', '10000'));
const SECONDS = Number(option('--seconds', '5'));
const ROUNDS = Number(option('--rounds', '3'));
const CLIENTS = Number(option('--clients', '16'));
const BEFORE = option('--before', '');
const HISTORY = Number(option('--history', '0'));
const LAYERS = process.argv.includes('--layers') && KIND === 'read';
/** Clock ticks a second of /proc's counters (USER_HZ: 100 on every Linux this runs on). */
const HZ = 100;

/** Ticks of processor time process `pid` has spent (user and system), 0 once it is gone. */
function ticks(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}
/** The machine's ticks so far: idle (with waits for the disk), stolen by its host, and all. */
function machineTicks() {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  return { idle: fields[3] + fields[4], steal: fields[7], all: fields.slice(0, 8).reduce((a, b) => a + b, 0) };
}
/** Ticks spent so far by each PostgreSQL process (each named `postgres`), by its id. */
function postgresTicks() {
  const spent = new Map();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') spent.set(pid, ticks(pid));
    } catch { /* gone meanwhile */ }
  }
  return spent;
}
/**
 * Ticks PostgreSQL's processes spent between two looks: each one there at the second, from its
 * first (or from its start). A pool's connection left idle past its timeout ends meanwhile, and
 * the server process with it: a sum of all then and all now counted its whole life as negative.
 */
function postgresSpent(before, after) {
  let sum = 0;
  for (const [pid, t] of after) sum += t - (before.get(pid) ?? 0);
  return sum;
}

process.stdout.write(`bench/postgres-cpu on ${machine()}; load ${load()}\n`);
const filled = await fillPostgres('cpu', RECORDS);
if (!filled) process.exit(0);
const { cluster, url, token } = filled;
if (HISTORY > 0) {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  await db.query(`INSERT INTO log (at, by, op, list, record, change) SELECT $1, $2, 'edit', r.list, r.id, '{"title":"benched"}'
    FROM records r, generate_series(1, $3::integer)`, [new Date().toISOString(), JSON.stringify({ id: 'person:bench', kind: 'person', name: 'bench' }), HISTORY]);
  await db.end();
}

const pick = () => 1 + Math.floor(Math.random() * RECORDS);
const note = () => ({
  method: 'POST', path: '/api/note', body: JSON.stringify({ id: pick(), text: 'benched' }),
  headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
});
const binderAsk = KIND === 'read' ? () => ({ method: 'GET', path: `/api/get?id=${pick()}` }) : note;
const setups = [['Binder', await serveHttp(url), binderAsk]];
if (BEFORE) setups.push(['Binder before', await serveHttp(url, { bin: BEFORE }), binderAsk]);
for (const mode of BARE) setups.push([`bare ${mode}`, await floorServer(url, mode), KIND === 'read' ? () => ({ method: 'GET', path: `/?id=${pick()}` }) : note]);
if (LAYERS) {
  const [, keeper] = setups[0];
  setups.push(['Binder /healthz', keeper, () => ({ method: 'GET', path: '/healthz' })], ['Binder /api/lists', keeper, () => ({ method: 'GET', path: '/api/lists' })],
    ['bare hello', await floorServer(url, 'hello'), () => ({ method: 'GET', path: '/' })]);
}

const got = new Map(setups.map(([name]) => [name, []]));
for (let r = 0; r <= ROUNDS; r++) {
  // Each setup goes first in turn (a reversal every other round left the middle ones of four in the middle).
  for (const [name, server, make] of [...setups.slice(r % setups.length), ...setups.slice(0, r % setups.length)]) {
    const [serverBefore, postgresBefore, clientBefore, machineBefore] = [ticks(server.pid), postgresTicks(), process.cpuUsage(), machineTicks()];
    const perSecond = await requestsPerSecond({ url: server.url.origin, token, clients: CLIENTS, seconds: SECONDS, make });
    const requests = perSecond * SECONDS;
    const client = process.cpuUsage(clientBefore);
    const after = machineTicks();
    const share = (key) => (100 * (after[key] - machineBefore[key])) / (after.all - machineBefore.all);
    const us = (t) => (t / HZ) * 1e6 / requests;
    if (r > 0) {
      got.get(name).push({
        perSecond, server: us(ticks(server.pid) - serverBefore), postgres: us(postgresSpent(postgresBefore, postgresTicks())),
        client: (client.user + client.system) / requests, idle: share('idle'), steal: share('steal'),
      });
    }
  }
}
for (const server of new Set(setups.map(([, s]) => s))) await server.stop();
await cluster.stop();

const mid = (rows, key) => Math.round(median(rows.map((x) => x[key])));
const busy = HISTORY > 0 ? ` of ${HISTORY + 1} history rows` : '';
process.stdout.write(`${KIND === 'read' ? `GET of a record${busy}` : 'a durable note'}, ${CLIENTS} clients, median of ${ROUNDS} rounds of ${SECONDS} s:\n`);
process.stdout.write('| setup | per second | its server, µs | PostgreSQL, µs | client, µs | sum, µs | the machine idle, stolen |\n|---|---|---|---|---|---|---|\n');
for (const [name, rows] of got) {
  const [server, postgres, client] = [mid(rows, 'server'), mid(rows, 'postgres'), mid(rows, 'client')];
  process.stdout.write(`| ${name} | ${mid(rows, 'perSecond').toLocaleString('en')} | ${server} | ${postgres} | ${client} | ${server + postgres + client} | ${mid(rows, 'idle')} %, ${mid(rows, 'steal')} % |\n`);
}
if (BEFORE) {
  const [now, then] = [got.get('Binder'), got.get('Binder before')];
  const sum = (x) => x.server + x.postgres + x.client;
  process.stdout.write(`Binder / Binder before, the median of the rounds' ratios: ${round(medianRatio(now.map((x) => x.perSecond), then.map((x) => x.perSecond)))}× the requests a second, `
    + `${round(medianRatio(now.map(sum), then.map(sum)))}× the processor time a request\n`);
}
