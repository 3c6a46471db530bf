// Shared pieces of the benchmarks: temporary stores, a keeper process, medians. Benchmarks print
// figures; they assert nothing (the machines are shared and noisy).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const BINDER = join(ROOT, 'dist', 'bin', 'binder.js');
export const BINDER_MCP = join(ROOT, 'dist', 'bin', 'binder-mcp.js');

export function tempDir(prefix = 'binder-bench-') {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function admin(store, ...args) {
  return adminOf(BINDER, store, ...args);
}

/** `binder admin` of the build whose dist/bin/binder.js is `bin` (an earlier one's, beside this). */
export function adminOf(bin, store, ...args) {
  const r = spawnSync(process.execPath, [bin, 'admin', '--store', store, '--as', 'bench', ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`binder admin ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** `binder serve --no-tui --quiet` of `bin` (node started with `nodeOptions`), resolved once it keeps the binder. */
export function serve(store, extra = [], nodeOptions = [], bin = BINDER) {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [...nodeOptions, bin, 'serve', '--no-tui', '--quiet', '--store', store, ...extra], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      if (out.includes('Stop with Ctrl-C')) done({ child, stop: () => new Promise((ok) => { child.on('exit', ok); child.kill('SIGTERM'); }) });
    });
    child.on('exit', (code) => fail(new Error(`keeper exited ${code}`)));
  });
}

/**
 * `binder serve --no-tui --quiet --http` of `bin` on a free port of 127.0.0.1, with a rate no bench
 * reaches, resolved once it answers: its address (`url`, a URL), its process id and a way to stop it.
 */
export function serveHttp(store, { bin = BINDER, extra = [] } = {}) {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [bin, 'serve', '--no-tui', '--quiet', '--store', store, '--http', '127.0.0.1:0', '--rate', '1000000/1000000', ...extra],
      { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      const at = /Answering on (http:\/\/\S+) too/.exec(out)?.[1];
      if (at && out.includes('Stop with Ctrl-C')) done({ url: new URL(at), pid: child.pid, stop: () => new Promise((ok) => { child.on('exit', ok); child.kill('SIGTERM'); }) });
    });
    child.on('exit', (code) => fail(new Error(`keeper exited ${code}`)));
  });
}

/**
 * A bare server of bench/floor-server.mjs in `mode` on the database at `url` (`env`: its
 * environment besides), resolved once it listens: its address (`url`, a URL), process id and stop.
 */
export function floorServer(url, mode, env = {}) {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(ROOT, 'bench', 'floor-server.mjs'), url, mode], {
      stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env },
    });
    child.stdout.on('data', (chunk) => {
      const port = /port (\d+)/.exec(String(chunk))?.[1];
      if (port) done({ url: new URL(`http://127.0.0.1:${port}`), pid: child.pid, stop: () => new Promise((ok) => { child.on('exit', ok); child.kill('SIGTERM'); }) });
    });
    child.on('exit', (code) => fail(new Error(`floor server exited ${code}`)));
  });
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN;
};
export const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN;
};
export const round = (x, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

export function machine() {
  return `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`;
}

/** Runs each command once, in turn; returns the wall time of each in ms (spawn to exit, as a caller waits). */
export function interleaveRound(commands) {
  const times = {};
  for (const c of commands) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(c.argv[0], c.argv.slice(1), { cwd: c.cwd, env: c.env ?? process.env, stdio: ['ignore', 'ignore', 'pipe'] });
    times[c.name] = Number(process.hrtime.bigint() - t0) / 1e6;
    if (r.status !== 0) throw new Error(`${c.name} (${c.argv.join(' ')}) exited ${r.status ?? r.signal}: ${r.stderr}`);
  }
  return times;
}

/**
 * Runs each command once per round, in turn (A B C A B C …), after `warmup` rounds not kept:
 * the machines are shared, so a comparison is only fair between runs made side by side.
 * A command is { name, argv, cwd?, env? }; its output is thrown away. Returns, per name, the
 * wall time of each kept round in ms.
 */
export function interleave(commands, { rounds = 30, warmup = 3 } = {}) {
  const times = Object.fromEntries(commands.map((c) => [c.name, []]));
  for (let round = 0; round < warmup + rounds; round++) {
    const one = interleaveRound(commands);
    if (round >= warmup) for (const [name, ms] of Object.entries(one)) times[name].push(ms);
  }
  return times;
}

/** The median over rounds of a / b, each pair taken in the same round. */
export const medianRatio = (a, b) => median(a.map((x, i) => x / b[i]));

/** The machine's load average over the last minute, as `uptime` shows it. */
export const load = () => round(loadavg()[0], 2);

/** `--name VALUE` from the command line, else `dflt`. */
export function option(name, dflt) {
  const at = process.argv.indexOf(name);
  return at > 0 && at + 1 < process.argv.length ? process.argv[at + 1] : dflt;
}
