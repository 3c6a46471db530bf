// bench/profile-postgres: where a keeper's time goes on PostgreSQL under REST notes or reads, alone
// (all clients on it) or as one of two keepers of the binder (half the clients each, asked at
// once). Prints the keeper's processor time a request (user and system, from /proc); with --prof,
// its profile (`--cpu-prof`) read into the packages and Binder's folders that took its own time,
// per request, and the .cpuprofile's path (a flame graph in Chromium's DevTools or speedscope).
// Linux alone (/proc). Figures, not tests.
//   node bench/profile-postgres.mjs [--kind note|read] [--pair] [--prof] [--records 10000]
//        [--seconds 10] [--clients 16]
// Built with BINDER_BUILD_NAMES=lines (node scripts/build.mjs), each bundle says which source file
// each line came from, and the table names Binder's folders; else it names the bundles.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fillPostgres } from './fill.mjs';
import { BINDER, load, machine, option, serveHttp } from './lib.mjs';
import { requestsPerSecond } from './load-test.mjs';

const KIND = option('--kind', 'note');
const PAIR = process.argv.includes('--pair');
const PROF = process.argv.includes('--prof');
const RECORDS = Number(option('--records', '10000'));
const SECONDS = Number(option('--seconds', '10'));
const CLIENTS = Number(option('--clients', '16'));

/** A keeper of this build, profiled when asked: resolved once it answers. */
function keeper(url, dir) {
  const child = spawn(process.execPath, [...(PROF ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : []), BINDER, 'serve', '--no-tui', '--quiet',
    '--store', url, '--http', '127.0.0.1:0', '--rate', '1000000/1000000'], { stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((done) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const at = /Answering on (http:\/\/\S+) too/.exec(out)?.[1];
      if (at && out.includes('Stop with')) done({ child, origin: new URL(at).origin });
    });
  });
}
/** The process's processor time so far, user and system, in ms. */
function cpu(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10 };
}

/** Self time by package (node_modules), Binder's folder (src/…, from a lines build) or bundle. */
function byPlace(file) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const sources = new Map();
  const placeOf = ({ url, lineNumber, functionName }) => {
    // Node's own: (idle), (garbage collector), a system call such as writev (its wait included).
    if (!url) return functionName.startsWith('(') ? functionName : `${functionName} (native)`;
    if (!url.includes('/dist/')) return url.startsWith('node:') ? 'node' : url.replace(/.*\/node_modules\/((?:@[^/]+\/)?[^/]+).*/, '$1');
    let lines = sources.get(url);
    if (!lines) {
      let at = url.replace(/.*\/dist\//, 'dist/');
      lines = readFileSync(new URL(url), 'utf8').split('\n').map((line) => {
        const said = /^\/\/ ((?:src|node_modules)\/\S+)/.exec(line)?.[1];
        if (said) at = said.startsWith('src/') ? said.split('/').slice(0, 2).join('/') : said.replace(/node_modules\/((?:@[^/]+\/)?[^/]+).*/, '$1');
        return at;
      });
      sources.set(url, lines);
    }
    return lines[lineNumber] ?? '?';
  };
  const spent = new Map();
  profile.samples.forEach((id, i) => {
    const place = placeOf(nodes.get(id).callFrame);
    spent.set(place, (spent.get(place) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...spent].sort((a, b) => b[1] - a[1]);
}

process.stdout.write(`bench/profile-postgres on ${machine()}; load ${load()}\n`);
const filled = await fillPostgres('profile', RECORDS);
if (!filled) process.exit(0);
const { cluster, url, token } = filled;
// Kept after the run: the path printed is to be opened.
const dir = mkdtempSync(join(tmpdir(), 'binder-profile-pg-'));
const pick = () => 1 + Math.floor(Math.random() * RECORDS);
const make = KIND === 'note'
  ? () => ({ method: 'POST', path: '/api/note', body: JSON.stringify({ id: pick(), text: 'benched' }), headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() } })
  : () => ({ method: 'GET', path: `/api/get?id=${pick()}` });
const profiled = await keeper(url, dir);
const other = PAIR ? await serveHttp(url) : null;
const ask = (origin, clients) => requestsPerSecond({ url: origin, token, clients, seconds: SECONDS, make });
const askAll = () => Promise.all([ask(profiled.origin, PAIR ? CLIENTS / 2 : CLIENTS), ...(other ? [ask(other.url.origin, CLIENTS / 2)] : [])]);
const [warm] = await askAll(); // warm-up: statements prepared, the code compiled
const before = cpu(profiled.child.pid);
const [perSecond] = await askAll();
const after = cpu(profiled.child.pid);
const requests = perSecond * SECONDS;
const us = (ms) => Math.round((1000 * ms) / requests);
process.stdout.write(`${KIND === 'note' ? 'durable notes' : 'reads'}, ${PAIR ? `one keeper of two, ${CLIENTS / 2} clients each` : `one keeper, ${CLIENTS} clients`}: `
  + `${Math.round(perSecond).toLocaleString('en')}/s on it; its processor time ${us(after.user - before.user)} µs user, ${us(after.system - before.system)} µs system a request\n`);
await other?.stop();
await new Promise((stopped) => { profiled.child.on('exit', stopped); profiled.child.kill('SIGTERM'); });
await cluster.stop();
if (PROF) {
  const file = join(dir, readdirSync(dir).find((f) => f.endsWith('.cpuprofile')));
  // The profile spans the warm-up and the run.
  const all = (warm + perSecond) * SECONDS;
  process.stdout.write(`its own time by place, the warm-up and the run (µs a request, of the profile's samples; ${file}):\n| place | µs |\n|---|---|\n`);
  for (const [place, ms] of byPlace(file).slice(0, 16)) process.stdout.write(`| ${place} | ${Math.round((1000 * ms) / all)} |\n`);
}
