/** Running Binder's commands as people and agents do: real processes, real folders. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestContext } from 'node:test';
import { tempDir, until } from './temp.js';

/** The repository's root (tests run from build/test/…). */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const BINDER = join(ROOT, 'dist', 'bin', 'binder.js');
export const BINDER_MCP = join(ROOT, 'dist', 'bin', 'binder-mcp.js');
export const SHARED = join(ROOT, '..', 'shared');

export interface Run { code: number; out: string; err: string }

/** A command run to its end, its outputs whole (the code is null where a signal ended it). */
export interface Ran { code: number | null; out: string; err: string }

/** Runs COMMAND ARGS in `cwd` with exactly `env`, to its end. */
export function runCommand(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Ran> {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => { out += c; });
    child.stderr.on('data', (c) => { err += c; });
    child.on('close', (code) => done({ code, out, err }));
  });
}

/** Runs `binder ARGS` to its end. */
export function binder(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number } = {}): Run {
  const r = spawnSync(process.execPath, [BINDER, ...args], {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, ...options.env },
    input: options.input,
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 60_000,
  });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

/** Runs `binder ARGS` without blocking the event loop (for tests that keep a keeper in-process). */
export function binderAsync(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BINDER, ...args], { cwd: options.cwd ?? ROOT, env: { ...process.env, ...options.env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => { out += c; });
    child.stderr.on('data', (c) => { err += c; });
    child.on('close', (code) => done({ code: code ?? -1, out, err }));
  });
}

export interface Serving { child: ChildProcess; out: () => string; err: () => string; stop: () => Promise<number | null> }

/**
 * `binder serve --no-tui …`, started and waited for until it says it keeps the binder. It runs in a
 * folder of its own: a keeper of a store with no folder keeps `.binder` where it runs.
 */
export async function serveKeeper(t: TestContext, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Serving> {
  const cwd = tempDir(t, 'binder-keeper-');
  const child = spawn(process.execPath, [BINDER, 'serve', '--no-tui', ...args], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c) => { out += c; });
  child.stderr!.on('data', (c) => { err += c; });
  let exited = false;
  const exit = new Promise<number | null>((done) => child.on('exit', (code) => { exited = true; done(code); }));
  const stop = async () => { if (!exited) child.kill('SIGTERM'); return exit; };
  t.after(async () => { if (!exited) { child.kill('SIGKILL'); await exit; } });
  await until(() => out.includes('Stop with Ctrl-C') || exited, 15_000, 'the keeper to start');
  if (exited) throw new Error(`the keeper stopped at start: ${err}`);
  return { child, out: () => out, err: () => err, stop };
}

/** The first version's own command, written out from the seed; null where shared/ is absent. */
export function seedClient(dir: string): string | null {
  const tool = join(SHARED, 'tools', 'extract-seed.mjs');
  if (!existsSync(tool)) return null;
  const r = spawnSync(process.execPath, [tool, dir], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`extract-seed failed: ${r.stderr}`);
  return r.stdout.trim();
}
