#!/usr/bin/env node
/**
 * The `binder` command's entry: wires the process to `runBinder`, or to a person's side for
 * `tui`, `serve` and `admin`, or to `sandbox` and `doctor`. It only wires; one catch maps a bug to exit code 70.
 */
import { fileURLToPath } from 'node:url';
import { safeAnswer } from '../keeper/terminal-safe.js';
import { runBinder } from '../agent/cli.js';
import { firstVerb } from '../agent/command-line.js';
import { writeAll } from '../keeper/output.js';
import { PERSON_VERBS, runPersonSide, runSandboxSide, SANDBOX_VERBS } from '../agent/person-side.js';
import { completionNames } from './completion-names.js';

const argv = process.argv.slice(2);
const err = (text: string): void => writeAll(2, text);

// This bundle may be started from V8's code cache (scripts/build.mjs), where import() cannot
// be used: the person's bundles have CommonJS stand-ins, loaded with require.
const loadByRequire = async (url: URL): Promise<unknown> => require(fileURLToPath(url)) as unknown;

async function main(): Promise<number> {
  try {
    if (SANDBOX_VERBS.has(argv[0] ?? '') || firstVerb(argv) === 'doctor') return await runSandboxSide(argv, err, import.meta.url, loadByRequire);
    // A shell's completion asking for list names or states, on every TAB: from this light bundle.
    if (argv[0] === 'completion' && argv[1] === 'names') return await completionNames(argv.slice(2), process.env, process.cwd(), (text) => writeAll(1, text));
    return PERSON_VERBS.has(argv[0] ?? '')
      ? await runPersonSide(argv, err, undefined, loadByRequire)
      : await runBinder(argv, {
          out: (text) => writeAll(1, text),
          err,
          env: process.env,
          cwd: process.cwd(),
        });
  } catch (error) {
    err(`binder: ${safeAnswer(error instanceof Error ? (error.stack ?? error.message) : String(error))}\n`);
    return 70;
  }
}

// No top-level await: the bundle is CommonJS, which starts sooner.
void main().then((code) => {
  process.exitCode = code;
  // A keeper that stopped has closed all it held, yet a pipe a library left referenced could keep
  // the process (seen on PostgreSQL when a stop came right after the start): once its last lines
  // are written, it ends.
  if (argv[0] === 'serve') process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
});
