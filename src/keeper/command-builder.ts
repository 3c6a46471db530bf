/**
 * Commander commands generated from catalog operations: positional words in declaration order,
 * flags for the rest, repeatable flags for owners, fields and lists of names. Both `binder` (the
 * agents' verbs) and `binder admin` (all of them) are made here, so no face declares a verb twice.
 * Light on purpose: the agent's command loads it on every call.
 */
import { Argument, Command, InvalidArgumentError, Option } from 'commander';
import type { ArgSpec, OpSpec } from './operations.js';
import { askArgs } from './ask-args.js';
import { readRecordNumber } from '../store/light.js';

const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

const fieldValue = (value: string, previous: string[] | undefined): string[] => {
  if (value.indexOf('=') < 1) throw new InvalidArgumentError('Give it as name=value.');
  return collect(value, previous);
};

const wholeNumber = (arg: ArgSpec) => (value: string): number => {
  const n = /^\d{1,15}$/.test(value) ? Number(value) : NaN;
  if (Number.isNaN(n)) throw new InvalidArgumentError('Give a whole number, 0 or more.');
  if (arg.max !== undefined && n > arg.max) throw new InvalidArgumentError(`Give a number from 0 to ${arg.max}.`);
  return n;
};

/** A record's number is checked here, so that `binder get abc` asks nothing; the word goes as typed. */
const recordWord = (value: string): string => {
  if (readRecordNumber(value) === null) throw new InvalidArgumentError('Give a record\'s number: 12 or #12.');
  return value;
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
  if (arg.kind === 'number') argument.argParser(wholeNumber(arg));
  if (arg.kind === 'record') argument.argParser(recordWord);
  return argument;
}

function flag(name: string, arg: ArgSpec): Option {
  const long = `--${arg.flag ?? kebab(name)}`;
  if (arg.kind === 'flag') return new Option(long, arg.describe);
  const option = new Option(`${long} <${arg.placeholder ?? 'VALUE'}>`, arg.describe);
  switch (arg.kind) {
    case 'owners': case 'texts': return option.argParser(collect);
    case 'fields': return option.argParser(fieldValue);
    case 'number': return option.argParser(wholeNumber(arg));
    case 'record': return option.argParser(recordWord);
    case 'choice': return arg.choices ? option.choices(arg.choices) : option;
    case 'text': case 'words': case 'due': return option;
    default: {
      const never: never = arg.kind;
      throw new Error(`unknown argument kind ${String(never)}`);
    }
  }
}

/** The operation's arguments, named as the catalog names them, from commander's action call. */
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

/**
 * Adds `op` to `parent` as a command named `as` (the op's name by default); `chosen` receives
 * its arguments, read, and the command (for global options).
 */
export function addOperation(parent: Command, op: OpSpec, chosen: (args: Record<string, unknown>, command: Command) => void, as = op.name): Command {
  const verb = parent.command(as).description(op.describe).addHelpText('after', `\nExample:\n  ${op.example}`);
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
    chosen(readArgs(op, params.slice(0, -2), command.opts(), optionNames), command);
  });
  return verb;
}
