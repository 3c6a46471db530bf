/**
 * `binder sandbox` and `binder doctor`, a bundle of their own that `binder` loads only for these
 * two verbs: the agent's other calls never pay for it.
 */
import { writeAll } from '../agent/output.js';
import { runDoctor } from './doctor.js';
import { runSandbox } from './run-sandbox.js';

export async function main(argv: string[]): Promise<number> {
  const io = { out: (text: string) => writeAll(1, text), err: (text: string) => writeAll(2, text), env: process.env, cwd: process.cwd() };
  if (argv[0] === 'doctor') return runDoctor(io);
  return runSandbox(argv.slice(1), { ...io, platform: process.platform });
}
