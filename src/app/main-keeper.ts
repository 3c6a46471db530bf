/**
 * The person's commands that open the store: `binder admin …`, `binder serve --no-tui …` and `binder init`.
 * Bundled apart (dist/bin/binder-keeper.js) and loaded by `binder` only for these, so the
 * agent's path never pays for SQLite or zod. Starts nothing on import.
 */
import { admin } from './admin.js';
import { serve } from './serve.js';
import { init } from '../app/init.js';
import { completion } from '../app/completion.js';

/** `argv` begins with `admin` or `serve`; resolves with the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'admin') return admin(rest);
  if (command === 'serve') return serve(rest);
  if (command === 'init') return init(rest);
  if (command === 'completion') return completion(rest);
  process.stderr.write(`binder: "${String(command)}" is not a person's command here: admin, serve, init or completion.\n`);
  return 64;
}
