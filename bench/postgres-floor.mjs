// bench/postgres-floor: what this machine allows a durable change on PostgreSQL, beside what two
// keepers give. On one durable database of N records (10,000), four setups of two server processes
// each, 16 clients spread over them (autocannon), every request a note with an Idempotency-Key:
//   Binder         two `binder serve --no-tui --http` keepers of this build;
//   as sent        two bare servers (floor-server.mjs) sending the statements a keeper sends for a
//                  note, in its four round trips, with no rule, no batching and no Binder code;
//   one statement  the same bare servers, the token's look and then the change as one statement;
//   no token       the change as one statement alone: one round trip, nothing looked at before it.
// Then reads (GET of one record, 16 clients): Binder through one keeper, beside a bare server
// reading by one statement (no token looked at) what a keeper answers a `get` with, the record's
// page (its row, notes, history, attachments and links), beside one sending the token's look with
// that statement in the same write (what a keeper sends: the read's "one statement" as a change's
// is "the token's look, then the change as one statement"), and beside one reading the record's
// row alone (none of its page: the least any read costs), rounds in turn. The reads are of N
// records more, filled alike and noted by none: the changes' notes would make a record's page
// (its notes and history) heavier round after round, and the bare read reads none of them.
// Every process serves all rounds; one round runs each setup for SECONDS in turn, each round from
// the next setup on; the first round is thrown away (warm-up), ROUNDS are kept.
// Each figure is the median of its rounds, each ratio Binder / floor taken within a round.
// Figures, not tests.
// The budgets: Binder's changes ≥ 0.9× "one statement"; Binder's read ≤ 1.2× the bare server's
// one-statement read of the same page (in time a read, so ≥ 1/1.2 of its reads a second).
// With --before DIST_BIN (an earlier build's dist/bin/binder.js), that build's two keepers and one
// reading keeper are setups too, in the same rounds, with the ratio now / before within each round.
//   node bench/postgres-floor.mjs [--records 10000] [--seconds 5] [--rounds 5] [--clients 16] [--json FILE]
//        [--before DIST_BIN]
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { fillPostgres } from './fill.mjs';
import { floorServer, load, machine, median, medianRatio, option, round, serveHttp } from './lib.mjs';
import { requestsPerSecond } from './load-test.mjs';

const RECORDS = Number(option('--records', '10000'));
const SECONDS = Number(option('--seconds', '5'));
const ROUNDS = Number(option('--rounds', '5'));
const CLIENTS = Number(option('--clients', '16'));
const JSON_OUT = option('--json', '');
const BEFORE = option('--before', '');

process.stdout.write(`bench/postgres-floor on ${machine()}; load ${load()}\n`);
const filled = await fillPostgres('floor', 2 * RECORDS);
if (!filled) process.exit(0);
const { cluster, url, token } = filled;

const SETUPS = [
  ['Binder', () => serveHttp(url)],
  ['as sent', () => floorServer(url, 'as-sent')],
  ['one statement', () => floorServer(url, 'one')],
  ['no token', () => floorServer(url, 'no-token')],
  ...(BEFORE ? [['Binder before', () => serveHttp(url, { bin: BEFORE })]] : []),
];
/** Reads: one process each, all clients on it. */
const READS = [
  ['Binder read', () => serveHttp(url)],
  ['bare page read', () => floorServer(url, 'read-page')],
  ['bare page read with the token', () => floorServer(url, 'read-whole')],
  ['bare row read', () => floorServer(url, 'read')],
  ...(BEFORE ? [['Binder before read', () => serveHttp(url, { bin: BEFORE })]] : []),
];
/** A record the reads read: one of the second N, which no change notes. */
const pick = () => RECORDS + 1 + Math.floor(Math.random() * RECORDS);
const makeRead = (name) => () => ({ method: 'GET', path: name.startsWith('Binder') ? `/api/get?id=${pick()}` : `/?id=${pick()}` });
const make = () => ({
  method: 'POST', path: '/api/note', body: JSON.stringify({ id: 1 + Math.floor(Math.random() * RECORDS), text: 'benched' }),
  headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
});
/** Durable changes a second through a setup's two processes, CLIENTS clients spread over them. */
async function rate(servers) {
  const rates = await Promise.all(servers.map((s, i) => requestsPerSecond({
    url: s.url.origin, token, seconds: SECONDS, make, clients: Math.floor(CLIENTS / 2) + (i < CLIENTS % 2 ? 1 : 0),
  })));
  return rates.reduce((a, b) => a + b, 0);
}

// Every setup's processes start first and serve every round: a process just started answers its
// first thousands slower (V8 compiles as it goes, the pool fills, statements are prepared).
const servers = [];
for (const [, start] of SETUPS) servers.push([await start(), await start()]);
const readers = [];
for (const [, start] of READS) readers.push(await start());
const got = Object.fromEntries([...SETUPS, ...READS].map(([name]) => [name, []]));
/** The setups' order in round `r`, from the r-th on: each goes first in its turn (a fixed order ran each after the same one always). */
const turn = (n, r) => Array.from({ length: n }, (_, i) => (i + r) % n);
for (let r = 0; r <= ROUNDS; r++) {
  for (const i of turn(SETUPS.length, r)) {
    const perSecond = await rate(servers[i]);
    if (r > 0) got[SETUPS[i][0]].push(perSecond);
  }
  for (const i of turn(READS.length, r)) {
    const name = READS[i][0];
    const perSecond = await requestsPerSecond({ url: readers[i].url.origin, token, seconds: SECONDS, make: makeRead(name), clients: CLIENTS });
    if (r > 0) got[name].push(perSecond);
  }
}
for (const pair of servers) for (const s of pair) await s.stop();
for (const s of readers) await s.stop();
const results = { records: RECORDS, clients: CLIENTS, rounds: ROUNDS, seconds: SECONDS, machine: machine(), load: load(), setups: {} };
for (const [name] of SETUPS) {
  const rates = got[name];
  const entry = { changesPerSecond: Math.round(median(rates)), range: [Math.round(Math.min(...rates)), Math.round(Math.max(...rates))] };
  if (name !== 'Binder') entry.binderRatio = round(medianRatio(got.Binder, rates), 2);
  results.setups[name] = entry;
  process.stdout.write(`${name.padEnd(14)} ${entry.changesPerSecond.toLocaleString('en')} durable changes/s through two processes `
    + `(rounds ${entry.range.map((x) => x.toLocaleString('en')).join('–')})${entry.binderRatio ? `; Binder ${entry.binderRatio}× this` : ''}\n`);
}
const perSecond = (name) => Math.round(median(got[name]));
// A read's time is the inverse of reads a second at the same clients: Binder's time / the bare one's.
const timeRatio = (bare) => round(medianRatio(got[bare], got['Binder read']), 2);
results.reads = {
  binder: perSecond('Binder read'), page: perSecond('bare page read'), withToken: perSecond('bare page read with the token'), row: perSecond('bare row read'),
  timeRatio: timeRatio('bare page read'), withTokenTimeRatio: timeRatio('bare page read with the token'), rowTimeRatio: timeRatio('bare row read'),
};
process.stdout.write(`reads          Binder through one keeper ${results.reads.binder.toLocaleString('en')}/s; the bare one-statement read `
  + `of the page ${results.reads.page.toLocaleString('en')}/s, of the page with the token's look ${results.reads.withToken.toLocaleString('en')}/s, `
  + `of the row alone ${results.reads.row.toLocaleString('en')}/s; a read through Binder takes ${results.reads.timeRatio}×, `
  + `${results.reads.withTokenTimeRatio}× and ${results.reads.rowTimeRatio}× their time (median of rounds)\n`);
if (BEFORE) {
  results.before = {
    changes: round(medianRatio(got.Binder, got['Binder before']), 2),
    // As a time: this build's read's time / the build before's.
    readTime: round(medianRatio(got['Binder before read'], got['Binder read']), 2),
  };
  process.stdout.write(`this build / the build before: ${results.before.changes}× the changes a second; a read in ${results.before.readTime}× the time (median of rounds)\n`);
}
process.stdout.write(`budgets: Binder's changes ≥ 0.9× "one statement": ${results.setups['one statement'].binderRatio}×; `
  + `a read ≤ 1.2× the bare page read's time: ${results.reads.timeRatio}×\n`);
if (JSON_OUT) writeFileSync(JSON_OUT, JSON.stringify(results, null, 2));
await cluster.stop();
