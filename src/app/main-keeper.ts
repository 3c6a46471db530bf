/**
 * The person's commands that open the store: `binder admin …` and `binder serve --no-tui …`.
 * Bundled apart (dist/bin/binder-keeper.js) and loaded by `binder` only for these, so the
 * agent's path never pays for SQLite or zod. Starts nothing on import.
 */
import { admin } from './admin.js';
import { serve } from './serve.js';

/** `argv` begins with `admin` or `serve`; resolves with the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'admin') return admin(rest);
  if (command === 'serve') return serve(rest);
  process.stderr.write(`binder: "${String(command)}" is not a person's command here: admin or serve.\n`);
  return 64;
}
