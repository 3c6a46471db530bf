/**
 * `binder sandbox [--dir DIR] [--allow-write PATH]… [--allow-read PATH]… -- COMMAND [ARGS…]`:
 * runs an agent so that the binder is reachable only through its folder — bubblewrap on Linux,
 * sandbox-exec on macOS. Without `--`, a dry run: what it would hide and allow. It runs nothing
 * when it cannot contain: a missing bubblewrap is a sentence and exit 2, never a bare run.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, lstatSync, mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import { constants as osConstants, homedir, tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { bwrapArgs } from './bwrap.js';
import { planSandbox, sandboxEnv, SandboxRefusal, type LookAt, type SandboxAsk, type SandboxPlan } from './sandbox-plan.js';
import { seatbeltProfile } from './seatbelt.js';
import { terminalFilter } from './seccomp.js';
import { storesInUse } from './stores-in-use.js';

export interface SandboxIO {
  out(text: string): void;
  err(text: string): void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  platform: NodeJS.Platform;
}

const USAGE = 'binder sandbox [--dir DIR] [--allow-write PATH]… [--allow-read PATH]… -- COMMAND [ARGS…]';

/** What is on disk at `path`, after its links. */
export const lookOnDisk: LookAt = (path) => {
  try {
    lstatSync(path);
    const real = realpathSync(path);
    const stat = statSync(real);
    return { kind: stat.isDirectory() ? 'dir' : stat.isFile() ? 'file' : 'other', real };
  } catch {
    return undefined;
  }
};

/** The first executable `name` on PATH. */
export function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch { /* not here */ }
  }
  return undefined;
}

type Read = { ask: SandboxAsk; command: string[] | undefined; help?: boolean } | { problem: string };

export function readSandboxLine(argv: readonly string[]): Read {
  const ask = { dir: undefined as string | undefined, allowWrite: [] as string[], allowRead: [] as string[] };
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') return { ask, command: argv.slice(i + 1).length ? argv.slice(i + 1) : undefined };
    if (word === '-h' || word === '--help') return { ask, command: undefined, help: true };
    const [flag, inline] = word.startsWith('--') && word.includes('=') ? [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)] : [word, undefined];
    if (flag !== '--dir' && flag !== '--allow-write' && flag !== '--allow-read') {
      return { problem: `binder sandbox does not know ${JSON.stringify(word)}; the command to run comes after --: ${USAGE}` };
    }
    const value = inline ?? argv[++i];
    if (value === undefined || value === '') return { problem: `${flag} needs a path: ${USAGE}` };
    if (flag === '--dir') ask.dir = value;
    else (flag === '--allow-write' ? ask.allowWrite : ask.allowRead).push(value);
  }
  return { ask, command: undefined };
}

/** The dry run's words: what the agent would reach, and not. */
export function describePlan(plan: SandboxPlan, tool: string): string {
  const lines = [`binder sandbox would run the command with ${tool}:`];
  for (const w of plan.writable) lines.push(`  writable: ${w.path} (${w.why})`);
  lines.push('  writable: a private /tmp');
  if (!plan.folder) lines.push(`  no .binder folder above ${plan.work}: the agent's binder will find none (register one: binder admin side add)`);
  for (const h of plan.hidden) lines.push(`  hidden: ${h.path} (${h.why})`);
  for (const path of plan.readable) lines.push(`  readable again: ${path} (--allow-read)`);
  for (const d of plan.dropped) lines.push(`  left out of its environment: ${d.name} (${d.why})`);
  lines.push(
    "  its own processes: it cannot see, signal or trace yours (the keeper's among them)",
    '  your terminal: it keeps it, but cannot push keys into it',
    '  the network stays: its model, and binder --url, work (and abstract sockets: an X11 display, docs/agents.md)',
    '  everything else: read-only',
    'Run an agent in it: binder sandbox -- claude (or codex, aider, a shell, a script).',
  );
  return `${lines.join('\n')}\n`;
}

/** Runs `binder sandbox …` and resolves with the agent's exit code (or 2, 64 for its own refusals). */
export async function runSandbox(argv: readonly string[], io: SandboxIO): Promise<number> {
  const read = readSandboxLine(argv);
  if ('problem' in read) {
    io.err(`${read.problem}\n`);
    return 64;
  }
  if (read.help) {
    io.out(`${USAGE}\nRuns an agent so that the binder is reachable only through its folder. Without --, says what it would hide and allow.\n`);
    return 0;
  }
  let plan: SandboxPlan;
  try {
    plan = planSandbox(read.ask, { cwd: io.cwd, home: io.env.HOME || homedir(), uid: process.getuid?.() ?? 0, env: io.env, storesInUse: io.platform === 'linux' ? storesInUse() : [] }, lookOnDisk);
  } catch (error) {
    if (!(error instanceof SandboxRefusal)) throw error;
    io.err(`${error.message}\n`);
    return 2;
  }
  const mac = io.platform === 'darwin';
  const tool = mac ? onPath('sandbox-exec', { PATH: '/usr/bin' }) : onPath('bwrap', io.env);
  const missing = mac
    ? 'sandbox-exec is missing from /usr/bin: this macOS cannot run binder sandbox.'
    : 'bubblewrap is missing: install it (apt install bubblewrap, dnf install bubblewrap, pacman -S bubblewrap) and run binder sandbox again; nothing was run.';
  if (io.platform !== 'linux' && !mac) {
    io.err(`binder sandbox runs on Linux (bubblewrap) and macOS (sandbox-exec), not on ${io.platform}; nothing was run.\n`);
    return 2;
  }
  if (!read.command) {
    io.out(describePlan(plan, mac ? 'sandbox-exec (a Seatbelt profile)' : `bubblewrap (${tool ?? 'not installed'})`));
    if (!tool) io.err(`${missing}\n`);
    return 0;
  }
  if (!tool) {
    io.err(`${missing}\n`);
    return 2;
  }
  const env = sandboxEnv(plan, io.env);
  let args: string[];
  let cleanUp = (): void => {};
  const filter = mac ? undefined : terminalFilter();
  if (mac) {
    const tmp = mkdtempSync(join(tmpdir(), 'binder-sandbox-'));
    cleanUp = () => rmSync(tmp, { recursive: true, force: true });
    env.TMPDIR = tmp;
    args = ['-p', seatbeltProfile(plan, tmp), ...read.command];
  } else {
    args = [...bwrapArgs(plan, filter ? 3 : undefined, programFolders()), ...read.command];
  }
  return new Promise((done) => {
    const child = spawn(tool, args, { stdio: ['inherit', 'inherit', 'inherit', filter ? 'pipe' : 'ignore'], env, cwd: plan.work });
    // bubblewrap reads the filter to its end before it starts the agent.
    if (filter) (child.stdio[3] as NodeJS.WritableStream).end(filter);
    // A Ctrl-C reaches the agent through the terminal; the sandbox waits for it to end.
    const ignore = (): void => {};
    process.on('SIGINT', ignore);
    child.on('error', (error) => {
      io.err(`binder sandbox could not start ${tool}: ${error.message}\n`);
      cleanUp();
      done(2);
    });
    child.on('exit', (code, signal) => {
      process.off('SIGINT', ignore);
      cleanUp();
      done(code ?? 128 + (signal ? signalNumber(signal) : 0));
    });
  });
}

const signalNumber = (signal: NodeJS.Signals): number => osConstants.signals[signal] ?? 1;

/** The folders Binder (its package, from the command that started it) and Node run from. */
function programFolders(): string[] {
  const folders = [dirname(dirname(process.execPath))];
  try {
    if (process.argv[1]) folders.push(dirname(dirname(dirname(realpathSync(process.argv[1])))));
  } catch {
    // Started some other way: Node's folder alone.
  }
  return folders;
}
