/**
 * The `binder` command line, read: one commander command per agent operation, generated from
 * the catalog (positional words in declaration order, flags for the rest), giving the ask to
 * make. It prints only help, the version and what it did not understand; it never asks.
 */
import { Command, CommanderError } from 'commander';
import { addOperation } from '../keeper/command-builder.js';
import { AGENT_OPERATIONS, type OpSpec } from '../keeper/operations.js';
import { FOLDER_NAME } from '../keeper/protocol.js';
import { VERSION } from '../version.js';

/** What the command line asks for, or the exit code when it was already dealt with. */
export type CommandLine =
  | { kind: 'ask'; op: string; args: Record<string, unknown>; json: boolean; dir?: string; url?: string; tokenFile?: string }
  | { kind: 'done'; code: number };

export interface CommandOutput {
  out(text: string): void;
  err(text: string): void;
}

export const EXIT_NOT_UNDERSTOOD = 64;

const ABOUT = `The lists you were given and their records. You ask; the binder's keeper answers.
\`binder\` alone is \`binder lists\`.`;

function helpAfter(): string {
  const examples = AGENT_OPERATIONS.map((op) => `  ${op.example}`).join('\n');
  return `
Examples:
${examples}

ID: a record's number, 12 or #12. DATE: 2026-11-04 or "2026-11-04 09:00".
Past a gate, only what a person approved moves on: propose, then work on what was approved.
The folder: --dir FOLDER, else $BINDER_DIR, else the nearest ${FOLDER_NAME} from here up.
Or over HTTP: --url URL (else $BINDER_URL), with the token in $BINDER_TOKEN or --token-file FILE.
BINDER_WAIT_MS: how long to wait for an answer (20000 by default).
Exit codes: 0 done, 1 refused, 2 no folder (or no token), 3 nobody keeps the binder, 64 not understood.

A person's: binder tui (the screen, and the keeper), binder serve [--no-tui], binder admin …`;
}

/** The first word that is not a global option, if any. */
function firstVerb(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--dir' || word === '--url' || word === '--token-file') i++;
    else if (word !== '--json' && !/^--(dir|url|token-file)=/.test(word)) return word;
  }
  return undefined;
}

/** With no verb (only --dir/--json, or nothing), the verb is `lists`. */
function withDefaultVerb(argv: readonly string[]): string[] {
  return firstVerb(argv) === undefined ? [...argv, 'lists'] : [...argv];
}

/**
 * The operations to make commands of: only the one named, when the line names one (start-up is
 * an agent's latency, and commander's work grows with every command made); else all of them,
 * for help, suggestions and what is not understood.
 */
function operationsFor(argv: readonly string[]): readonly OpSpec[] {
  const verb = firstVerb(argv);
  const named = AGENT_OPERATIONS.find((op) => op.name === verb);
  return named ? [named] : AGENT_OPERATIONS;
}

function program(output: CommandOutput, chosen: (line: CommandLine) => void, operations: readonly OpSpec[]): Command {
  const binder = new Command('binder')
    .description(ABOUT)
    .version(VERSION, '-V, --version', 'print the version')
    .option('--dir <FOLDER>', `the folder to ask through (else $BINDER_DIR, else the nearest ${FOLDER_NAME})`)
    .option('--json', "print the answer's data as one JSON document")
    .option('--url <URL>', 'ask the binder at this address over HTTP (else $BINDER_URL), not through a folder')
    .option('--token-file <FILE>', 'with --url: the token, in a file only you can read (else $BINDER_TOKEN)')
    .helpOption('-h, --help', 'show this help')
    .configureHelp({ showGlobalOptions: true })
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ writeOut: (s) => output.out(s), writeErr: (s) => output.err(s) })
    .addHelpText('after', helpAfter());
  binder.helpCommand('help [verb]', 'show the help of a verb');

  for (const op of operations) {
    addOperation(binder, op, (args, command) => {
      const globals = command.optsWithGlobals<{ dir?: string; json?: boolean; url?: string; tokenFile?: string }>();
      chosen({
        kind: 'ask', op: op.name, args, json: globals.json === true, ...(globals.dir !== undefined ? { dir: globals.dir } : {}),
        ...(globals.url !== undefined ? { url: globals.url } : {}), ...(globals.tokenFile !== undefined ? { tokenFile: globals.tokenFile } : {}),
      });
    });
  }
  return binder;
}

/** Reads `argv` (the words after `binder`): the ask it means, or the exit code it came to. */
export async function readCommandLine(argv: readonly string[], output: CommandOutput): Promise<CommandLine> {
  let line: CommandLine = { kind: 'done', code: EXIT_NOT_UNDERSTOOD };
  try {
    const words = withDefaultVerb(argv);
    await program(output, (chosen) => { line = chosen; }, operationsFor(words)).parseAsync(words, { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    return { kind: 'done', code: error.exitCode === 0 ? 0 : EXIT_NOT_UNDERSTOOD };
  }
  return line;
}
