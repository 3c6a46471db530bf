/**
 * A person's defaults, from `$XDG_CONFIG_HOME/binder/config.toml` (else ~/.config/binder/…;
 * `$BINDER_CONFIG` names another file): the store, the language, `binder init`'s list, and
 * `binder serve`'s HTTP options (`binder tui` takes them too). A flag wins over a `BINDER_*` variable, which wins over the
 * file. Read by a person's commands only: the agent's `binder` never loads this nor the parser.
 * A file that is not understood is refused whole, naming the line or the key, never half-used.
 */
import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse, TomlError } from 'smol-toml';
import type { Command } from 'commander';
import { attributeOf, HTTP_FLAGS, kindOf } from '../http/flags.js';
import type { HttpFlags } from '../http/plan.js';
import type { TuiOptions } from './tui-options.js';

/** A configuration file (or a BINDER_* variable) that is not understood: a sentence for the person. */
export class ConfigProblem extends Error {
  override readonly name = 'ConfigProblem';
}

/** Where a value in force came from: a flag, a variable, the file (its path), or Binder's default. */
export interface InForce<T> { value: T | undefined; from: string }

export interface PersonDefaults {
  file: string;
  /** Whether the file was there. */
  found: boolean;
  store: InForce<string>;
  lang: InForce<'en' | 'fr'>;
  list: InForce<string>;
  /** The screen's terminal notifications (`notify = false` turns them off). */
  notify: InForce<boolean>;
  /** `binder serve`'s options, by their flag's name without `--`. */
  serve: Record<string, InForce<string | boolean | string[]>>;
}

/** `binder serve`'s options a file may set, and the kind of value each takes: the HTTP face's, then its own. */
const SERVE_KEYS: Readonly<Record<string, 'text' | 'flag' | 'texts'>> = {
  // A file gives --http its address: `http = "0.0.0.0:4180"`.
  ...Object.fromEntries(HTTP_FLAGS.map((f) => [f.name, kindOf(f) === 'text-or-flag' ? 'text' : kindOf(f)])),
  'workers': 'text', 'quiet': 'flag',
};
const TOP_KEYS = new Set(['store', 'lang', 'list', 'notify', 'serve']);

export function configFile(env: NodeJS.ProcessEnv = process.env): string {
  if (env.BINDER_CONFIG) return resolve(env.BINDER_CONFIG);
  const base = env.XDG_CONFIG_HOME ? resolve(env.XDG_CONFIG_HOME) : join(homedir(), '.config');
  return join(base, 'binder', 'config.toml');
}

/**
 * Whether the file at the usual place is out of this user's sight altogether: a folder above it
 * it may not search, as for a keeper run as another user that kept the person's HOME. Nothing can
 * be known of a file there, so there is none for this process; a file it can see and not read is
 * said.
 */
function outOfSight(file: string): boolean {
  try {
    statSync(file);
    return false;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'EACCES' || code === 'ENOENT' || code === 'ENOTDIR';
  }
}

/** The file's table, or null when there is none. */
function readTable(file: string, named: boolean): Record<string, unknown> | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (!named && (code === 'ENOTDIR' || (code === 'EACCES' && outOfSight(file)))) return null;
    throw new ConfigProblem(`The configuration file ${file} cannot be read: ${(error as Error).message}.`);
  }
  try {
    return parse(text) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof TomlError) throw new ConfigProblem(`The configuration file ${file} is not TOML Binder understands, at line ${error.line}, column ${error.column}: ${error.message.split('\n')[0]}`);
    throw error;
  }
}

const wrong = (file: string, key: string, what: string): ConfigProblem =>
  new ConfigProblem(`In the configuration file ${file}, ${key} takes ${what}.`);

function text(file: string, key: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isInteger(value)) return String(value);
  if (typeof value !== 'string' || !value.trim()) throw wrong(file, key, 'a string');
  return value;
}

/** Reads the defaults in force: the file's, under the `BINDER_*` variables. */
export function personDefaults(env: NodeJS.ProcessEnv = process.env): PersonDefaults {
  const file = configFile(env);
  const read = readTable(file, Boolean(env.BINDER_CONFIG));
  const table = read ?? {};
  for (const key of Object.keys(table)) {
    if (!TOP_KEYS.has(key)) throw new ConfigProblem(`The configuration file ${file} has "${key}", which Binder does not know: store, lang, list, notify and [serve] are.`);
  }
  const pick = <T>(variable: string, fromFile: T | undefined): InForce<T> =>
    env[variable] ? { value: env[variable] as T, from: variable }
      : fromFile !== undefined ? { value: fromFile, from: file } : { value: undefined, from: 'default' };
  const lang = text(file, 'lang', table.lang);
  if (lang !== undefined && lang !== 'en' && lang !== 'fr') throw wrong(file, 'lang', '"en" or "fr"');
  const envLang = env.BINDER_LANG;
  if (envLang && envLang !== 'en' && envLang !== 'fr') throw new ConfigProblem('BINDER_LANG takes en or fr.');
  if (table.notify !== undefined && typeof table.notify !== 'boolean') throw wrong(file, 'notify', 'true or false');
  const serveTable = table.serve ?? {};
  if (typeof serveTable !== 'object' || Array.isArray(serveTable)) throw wrong(file, 'serve', 'a table: [serve]');
  const serve: PersonDefaults['serve'] = {};
  for (const [key, value] of Object.entries(serveTable as Record<string, unknown>)) {
    const kind = SERVE_KEYS[key];
    if (!kind) throw new ConfigProblem(`The configuration file ${file} has serve.${key}, which binder serve does not take: ${Object.keys(SERVE_KEYS).join(', ')}.`);
    if (kind === 'flag' && typeof value !== 'boolean') throw wrong(file, `serve.${key}`, 'true or false');
    if (kind === 'texts' && !(Array.isArray(value) && value.every((v) => typeof v === 'string'))) throw wrong(file, `serve.${key}`, 'a list of strings');
    serve[key] = { value: kind === 'text' ? text(file, `serve.${key}`, value) : value as boolean | string[], from: file };
  }
  return {
    file,
    found: read !== null,
    store: pick('BINDER_STORE', text(file, 'store', table.store)),
    lang: pick('BINDER_LANG', lang as 'en' | 'fr' | undefined),
    list: pick('BINDER_LIST', text(file, 'list', table.list)),
    notify: table.notify !== undefined ? { value: table.notify as boolean, from: file } : { value: undefined, from: 'default' },
    serve,
  };
}

/**
 * Gives `binder serve` the file's values for the options not given on its command line (after
 * it read them). The store and the language come with their variables' precedence.
 */
export function applyServeDefaults(command: Command, defaults: PersonDefaults): void {
  const unset = (name: string): boolean => command.getOptionValueSource(name) !== 'cli';
  if (unset('store') && defaults.store.value !== undefined) command.setOptionValueWithSource('store', defaults.store.value, 'config');
  if (unset('lang') && defaults.lang.value !== undefined) command.setOptionValueWithSource('lang', defaults.lang.value, 'config');
  for (const [key, { value }] of Object.entries(defaults.serve)) {
    const name = attributeOf(key);
    if (value === undefined || !unset(name)) continue;
    // --no-tui's counterpart is kept as given: a file never turns the screen on or off.
    if (command.options.some((o) => o.attributeName() === name)) command.setOptionValueWithSource(name, value, 'config');
  }
}

/** `binder serve`'s options that are not the HTTP face's: the screen takes none of them. */
const SERVE_ALONE = new Set(['workers', 'quiet']);

/**
 * The options `binder tui` runs with: those on its command line, then the variables', then the
 * file's — the store, the language and the HTTP face's options, as `binder serve` takes them.
 */
export function withTuiDefaults(options: TuiOptions, defaults: PersonDefaults): TuiOptions {
  const http: Record<string, unknown> = { ...options.http };
  for (const [key, { value }] of Object.entries(defaults.serve)) {
    const name = attributeOf(key);
    if (value !== undefined && !SERVE_ALONE.has(key) && http[name] === undefined) http[name] = value;
  }
  return {
    ...options,
    ...(options.store === undefined && defaults.store.value !== undefined ? { store: defaults.store.value } : {}),
    ...(options.lang === undefined && defaults.lang.value !== undefined ? { lang: defaults.lang.value } : {}),
    ...(options.notify === undefined && defaults.notify.value !== undefined ? { notify: defaults.notify.value } : {}),
    http: http as HttpFlags,
  };
}
