// bench/pg-clients: which PostgreSQL client sends the keeper's change faster, on the same
// statements in the same two round trips (bench/floor-server.mjs, modes `two` and `two-js`):
//   pg            the client the keeper uses, in its pipeline mode;
//   postgres.js   the `postgres` package, on a reserved connection, each statement sent without
//                 waiting (its `sql.begin` would wait for BEGIN, and for the callback before COMMIT).
// One durable database of N records, one server process per client, 16 clients of autocannon on
// it, rounds in turn (the first thrown away). Each figure is the median of its rounds, the ratio
// postgres.js / pg taken within a round. Figures, not tests.
// postgres.js is no dependency of Binder: it is installed for the run in a folder of its own.
//   node bench/pg-clients.mjs [--records 10000] [--seconds 4] [--rounds 5] [--clients 16]
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fillPostgres } from './fill.mjs';
import { floorServer, load, machine, median, medianRatio, option, round, tempDir } from './lib.mjs';
import { requestsPerSecond } from './load-test.mjs';

const RECORDS = Number(option('--records', '10000'));
const SECONDS = Number(option('--seconds', '4'));
const ROUNDS = Number(option('--rounds', '5'));
const CLIENTS = Number(option('--clients', '16'));
const VERSION = '3.4.9';

const jsDir = process.env.BINDER_POSTGRES_JS ?? tempDir('binder-postgres-js-');
if (!existsSync(join(jsDir, 'node_modules', 'postgres'))) {
  const got = spawnSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', jsDir, `postgres@${VERSION}`], { stdio: 'inherit' });
  if (got.status !== 0) {
    process.stdout.write(`postgres@${VERSION} could not be installed: nothing measured\n`);
    process.exit(0);
  }
}

process.stdout.write(`bench/pg-clients on ${machine()}; load ${load()}\n`);
const filled = await fillPostgres('clients', RECORDS);
if (!filled) process.exit(0);
const { cluster, url, token } = filled;

const make = () => ({
  method: 'POST', path: '/', body: JSON.stringify({ id: 1 + Math.floor(Math.random() * RECORDS), text: 'benched' }),
  headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
});
const SETUPS = [['pg', 'two'], ['postgres.js', 'two-js']];
const servers = [];
for (const [, mode] of SETUPS) servers.push(await floorServer(url, mode, { BINDER_POSTGRES_JS: jsDir }));
const got = { pg: [], 'postgres.js': [] };
for (let r = 0; r <= ROUNDS; r++) {
  for (const [i, [name]] of SETUPS.entries()) {
    const perSecond = await requestsPerSecond({ url: servers[i].url.origin, token, seconds: SECONDS, make, clients: CLIENTS });
    if (r > 0) got[name].push(perSecond);
  }
}
for (const s of servers) await s.stop();
for (const [name] of SETUPS) {
  const rates = got[name];
  process.stdout.write(`${name.padEnd(12)} ${Math.round(median(rates)).toLocaleString('en')} durable changes/s `
    + `(rounds ${rates.map((x) => Math.round(x).toLocaleString('en')).join(', ')})\n`);
}
process.stdout.write(`postgres.js / pg: ${round(medianRatio(got['postgres.js'], got.pg), 2)}× (median of the rounds' ratios); load ${load()}\n`);
await cluster.stop();
