/**
 * The `binder` command line, read: one commander command per agent operation, generated from
 * the catalog (positional words in declaration order, flags for the rest), giving the ask to
 * make. It prints only help, the version, what it did not understand, and whose a person's
 * operation is when an agent types one; it never asks.
 */
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { addOperation } from '../keeper/command-builder.js';
import { AGENT_OPERATIONS, onlyAPerson, personOperation, type OpSpec } from '../keeper/operations.js';
import { FOLDER_NAME } from '../keeper/protocol.js';
import { VERSION } from '../version.js';

/** What the command line asks for, or the exit code when it was already dealt with. */
export type CommandLine =
  | { kind: 'ask'; op: string; args: Record<string, unknown>; json: boolean; dir?: string; askId?: string; url?: string; tokenFile?: string }
  | { kind: 'done'; code: number };

export interface CommandOutput {
  out(text: string): void;
  err(text: string): void;
}

export const EXIT_NOT_UNDERSTOOD = 64;
/** A person's operation typed here is refused, as the keeper would refuse it. */
const EXIT_REFUSED = 1;

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
--ask-id ID: the ask's id, to ask again without its being done twice (binder says which to use).
Exit codes: 0 done, 1 refused, 2 no folder (or no token), 3 nobody keeps the binder (nothing was
changed), 64 not understood, 75 not known whether it was done (ask again with --ask-id, or look).

binder doctor: what this process can reach (the store, the keeper); exit 0 when contained.
A person's: binder init (a project set up), binder tui (the screen, and the keeper), binder serve [--no-tui],
binder admin …, binder completion bash|zsh|fish, binder sandbox -- COMMAND (runs an agent with the
binder out of its reach).`;
}

/** The words from the first one that is not a global option on (the verb and what follows it). */
function fromVerb(argv: readonly string[]): readonly string[] {
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--dir' || word === '--ask-id' || word === '--url' || word === '--token-file') i++;
    else if (word !== '--json' && !/^--(dir|ask-id|url|token-file)=/.test(word)) return argv.slice(i);
  }
  return [];
}

export const firstVerb = (argv: readonly string[]): string | undefined => fromVerb(argv)[0];

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

/** An ask id given on the command line: 1 to 128 letters, digits, `.`, `_`, `:` or `-` (a UUID is one). */
function askIdOf(given: string): string {
  if (!/^[A-Za-z0-9._:-]{1,128}$/.test(given)) {
    throw new InvalidArgumentError('an ask id is 1 to 128 letters, digits, ".", "_", ":" or "-", as binder gives it.');
  }
  return given;
}

/** The command line of `binder`, also read by the shell's completion. */
export function program(output: CommandOutput, chosen: (line: CommandLine) => void, operations: readonly OpSpec[]): Command {
  const binder = new Command('binder')
    .description(ABOUT)
    .version(VERSION, '-V, --version', 'print the version')
    .option('--dir <FOLDER>', `the folder to ask through (else $BINDER_DIR, else the nearest ${FOLDER_NAME})`)
    .option('--json', "print the answer's data as one JSON document")
    .option('--ask-id <ID>', 'the id of this ask: the same as an ask whose outcome is not known, to learn it without doing it twice', askIdOf)
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
      const globals = command.optsWithGlobals<{ dir?: string; json?: boolean; askId?: string; url?: string; tokenFile?: string }>();
      chosen({
        kind: 'ask', op: op.name, args, json: globals.json === true,
        ...(globals.dir !== undefined ? { dir: globals.dir } : {}), ...(globals.askId !== undefined ? { askId: globals.askId } : {}),
        ...(globals.url !== undefined ? { url: globals.url } : {}), ...(globals.tokenFile !== undefined ? { tokenFile: globals.tokenFile } : {}),
      });
    });
  }
  return binder;
}

/** Reads `argv` (the words after `binder`): the ask it means, or the exit code it came to. */
export async function readCommandLine(argv: readonly string[], output: CommandOutput): Promise<CommandLine> {
  let line: CommandLine = { kind: 'done', code: EXIT_NOT_UNDERSTOOD };
  const persons = personOperation(fromVerb(argv));
  if (persons) {
    output.err(`Not done: ${onlyAPerson(persons)}\n`);
    return { kind: 'done', code: EXIT_REFUSED };
  }
  try {
    const words = withDefaultVerb(argv);
    await program(output, (chosen) => { line = chosen; }, operationsFor(words)).parseAsync(words, { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    return { kind: 'done', code: error.exitCode === 0 ? 0 : EXIT_NOT_UNDERSTOOD };
  }
  return line;
}
