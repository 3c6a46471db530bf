/**
 * `binder sandbox` and `binder doctor`, a bundle of their own that `binder` loads only for these
 * two verbs: the agent's other calls never pay for it.
 */
import { writeAll } from '../keeper/output.js';
import { doctorReport as report, examine, runDoctor, type DoctorAsk } from './doctor.js';
import { runSandbox } from './run-sandbox.js';

export async function main(argv: string[]): Promise<number> {
  const io = { out: (text: string) => writeAll(1, text), err: (text: string) => writeAll(2, text), env: process.env, cwd: process.cwd() };
  const at = argv.findIndex((word) => word === 'doctor' || word === 'sandbox');
  if (argv[at] === 'sandbox') return runSandbox(argv.slice(at + 1), { ...io, platform: process.platform });
  // `binder [--dir DIR | --url URL] doctor`: where this process would ask.
  const given = (flag: string): string | undefined => {
    const i = argv.findIndex((word) => word === flag || word.startsWith(`${flag}=`));
    return i < 0 ? undefined : argv[i]!.includes('=') ? argv[i]!.slice(flag.length + 1) : argv[i + 1];
  };
  return runDoctor({ dir: given('--dir'), url: given('--url') }, io);
}

/** `binder doctor`'s report for binder-mcp's `doctor` tool: the same words, from this process. */
export async function doctorReport(ask: DoctorAsk): Promise<string> {
  return report(await examine(process.env, process.cwd(), ask), !!process.env.BINDER_SANDBOX);
}
