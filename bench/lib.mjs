// Shared pieces of the benchmarks: temporary stores, a keeper process, medians. Benchmarks print
// figures; they assert nothing (the machines are shared and noisy).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const BINDER = join(ROOT, 'dist', 'bin', 'binder.js');

export function tempDir(prefix = 'binder-bench-') {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function admin(store, ...args) {
  const r = spawnSync(process.execPath, [BINDER, 'admin', '--store', store, '--as', 'bench', ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`binder admin ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** `binder serve --no-tui --quiet`, resolved once it keeps the binder. */
export function serve(store, extra = []) {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BINDER, 'serve', '--no-tui', '--quiet', '--store', store, ...extra], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      if (out.includes('Stop with Ctrl-C')) done({ child, stop: () => new Promise((ok) => { child.on('exit', ok); child.kill('SIGTERM'); }) });
    });
    child.on('exit', (code) => fail(new Error(`keeper exited ${code}`)));
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
