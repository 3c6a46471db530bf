/**
 * The `binder` command line, read: one commander command per agent operation, generated from
 * the catalog (positional words in declaration order, flags for the rest), giving the ask to
 * make. It prints only help, the version and what it did not understand; it never asks.
 */
import { Argument, Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { AGENT_OPERATIONS, type ArgSpec, type OpSpec } from '../keeper/operations.js';
import { FOLDER_NAME } from '../keeper/protocol.js';
import { VERSION } from '../version.js';
import { askArgs } from './ask-args.js';

/** What the command line asks for, or the exit code when it was already dealt with. */
export type CommandLine =
  | { kind: 'ask'; op: string; args: Record<string, unknown>; json: boolean; dir?: string }
  | { kind: 'done'; code: number };

export interface CommandOutput {
  out(text: string): void;
  err(text: string): void;
}

export const EXIT_NOT_UNDERSTOOD = 64;

const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

const fieldValue = (value: string, previous: string[] | undefined): string[] => {
  if (value.indexOf('=') < 1) throw new InvalidArgumentError('Give it as name=value.');
  return collect(value, previous);
};

const wholeNumber = (value: string): number => {
  if (!/^-?\d+$/.test(value)) throw new InvalidArgumentError('Give a whole number.');
  return Number(value);
};

/** `name=value` pairs as an object with no prototype: a field called `__proto__` stays a field. */
const fieldsObject = (pairs: readonly string[]): Record<string, string> => {
  const fields: Record<string, string> = Object.create(null);
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    fields[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return fields;
};

function positional(name: string, arg: ArgSpec): Argument {
  const label = `${arg.placeholder ?? name.toUpperCase()}${arg.kind === 'words' ? '...' : ''}`;
  const argument = new Argument(arg.required ? `<${label}>` : `[${label}]`, arg.describe);
  if (arg.kind === 'choice' && arg.choices) argument.choices(arg.choices);
  return argument;
}

function flag(name: string, arg: ArgSpec): Option {
  const long = `--${arg.flag ?? kebab(name)}`;
  if (arg.kind === 'flag') return new Option(long, arg.describe);
  const option = new Option(`${long} <${arg.placeholder ?? 'VALUE'}>`, arg.describe);
  switch (arg.kind) {
    case 'owners': case 'texts': return option.argParser(collect);
    case 'fields': return option.argParser(fieldValue);
    case 'number': return option.argParser(wholeNumber);
    case 'choice': return arg.choices ? option.choices(arg.choices) : option;
    case 'text': case 'words': case 'record': case 'due': return option;
    default: {
      const never: never = arg.kind;
      throw new Error(`unknown argument kind ${String(never)}`);
    }
  }
}

/** The verb's arguments, named as the catalog names them, from commander's action call. */
function readArgs(op: OpSpec, values: unknown[], options: Record<string, unknown>, optionNames: Map<string, string>): Record<string, unknown> {
  const given: Record<string, unknown> = {};
  let at = 0;
  for (const [name, arg] of Object.entries(op.args)) {
    if (arg.hidden || !arg.positional) continue;
    const value = values[at++];
    if (Array.isArray(value)) {
      if (value.length) given[name] = value.join(' ');
    } else if (value !== undefined) given[name] = value;
  }
  for (const [attribute, name] of optionNames) {
    const value = options[attribute];
    if (value === undefined) continue;
    given[name] = op.args[name]?.kind === 'fields' ? fieldsObject(value as string[]) : value;
  }
  return askArgs(op, given);
}

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
BINDER_WAIT_MS: how long to wait for an answer (20000 by default).
Exit codes: 0 done, 1 refused, 2 no folder, 3 nobody keeps the binder, 64 not understood.

A person's: binder tui (the screen, and the keeper), binder serve [--no-tui], binder admin …`;
}

/** With no verb (only --dir/--json, or nothing), the verb is `lists`. */
function withDefaultVerb(argv: readonly string[]): string[] {
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--dir') i++;
    else if (word !== '--json' && !word.startsWith('--dir=')) return [...argv];
  }
  return [...argv, 'lists'];
}

function program(output: CommandOutput, chosen: (line: CommandLine) => void): Command {
  const binder = new Command('binder')
    .description(ABOUT)
    .version(VERSION, '-V, --version', 'print the version')
    .option('--dir <FOLDER>', `the folder to ask through (else $BINDER_DIR, else the nearest ${FOLDER_NAME})`)
    .option('--json', "print the answer's data as one JSON document")
    .helpOption('-h, --help', 'show this help')
    .configureHelp({ showGlobalOptions: true })
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ writeOut: (s) => output.out(s), writeErr: (s) => output.err(s) })
    .addHelpText('after', helpAfter());
  binder.helpCommand('help [verb]', 'show the help of a verb');

  for (const op of AGENT_OPERATIONS) {
    const verb = binder.command(op.name).description(op.describe).addHelpText('after', `\nExample:\n  ${op.example}`);
    verb.helpOption('-h, --help', 'show this help');
    const optionNames = new Map<string, string>();
    for (const [name, arg] of Object.entries(op.args)) {
      if (arg.hidden) continue;
      if (arg.positional) verb.addArgument(positional(name, arg));
      else {
        const option = flag(name, arg);
        verb.addOption(option);
        optionNames.set(option.attributeName(), name);
      }
    }
    verb.action((...params: unknown[]) => {
      const command = params[params.length - 1] as Command;
      const globals = command.optsWithGlobals<{ dir?: string; json?: boolean }>();
      const args = readArgs(op, params.slice(0, -2), command.opts(), optionNames);
      chosen({ kind: 'ask', op: op.name, args, json: globals.json === true, ...(globals.dir !== undefined ? { dir: globals.dir } : {}) });
    });
  }
  return binder;
}

/** Reads `argv` (the words after `binder`): the ask it means, or the exit code it came to. */
export async function readCommandLine(argv: readonly string[], output: CommandOutput): Promise<CommandLine> {
  let line: CommandLine = { kind: 'done', code: EXIT_NOT_UNDERSTOOD };
  try {
    await program(output, (chosen) => { line = chosen; }).parseAsync(withDefaultVerb(argv), { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    return { kind: 'done', code: error.exitCode === 0 ? 0 : EXIT_NOT_UNDERSTOOD };
  }
  return line;
}
