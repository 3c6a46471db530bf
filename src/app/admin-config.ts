/**
 * `binder admin config`: the defaults in force for a person's commands and where each came from
 * (a flag, a `BINDER_*` variable, the configuration file, or Binder's own). A database's
 * password never shows: a store's URL is shown as every start line shows it.
 */
import type { Command } from 'commander';
import { safeSentence } from '../keeper/terminal-safe.js';
import { shownStoreUrl } from '../store/index.js';
import { whereStore } from '../keeper/places.js';
import { jsonDocument } from '../keeper/json-document.js';
import { safeAnswer } from '../keeper/terminal-safe.js';
import { ConfigProblem, personDefaults, type InForce } from './config.js';

type Globals = { store?: string; json?: boolean };

/** What `config` prints: one line a value, `KEY = VALUE  (from WHERE)`, or the same as JSON. */
export function inForce(globals: Globals, env: NodeJS.ProcessEnv = process.env): { text: string; data: Record<string, unknown> } {
  const d = personDefaults(env);
  const store: InForce<string> = globals.store !== undefined ? { value: globals.store, from: '--store' } : d.store;
  const spec = whereStore(store.value, env);
  const where = spec.kind === 'sqlite' ? spec.dir : spec.url !== undefined ? shownStoreUrl(spec.url) : 'PostgreSQL, from the PG* environment';
  const values: Array<[string, unknown, string]> = [
    ['store', where, store.value === undefined && spec.kind === 'postgres' ? 'PG* environment' : store.from],
    ['lang', d.lang.value ?? 'en', d.lang.from],
    ['list', d.list.value ?? null, d.list.from],
    ['notify', d.notify.value ?? true, d.notify.from],
    ...Object.entries(d.serve).map(([key, v]): [string, unknown, string] => [`serve.${key}`, v.value, v.from]),
  ];
  const shown = (v: unknown): string => (Array.isArray(v) ? v.join(', ') : v === null ? '(none)' : String(v));
  const lines = [
    `Configuration file: ${d.file}${d.found ? '' : ' (none there)'}`,
    ...values.map(([key, value, from]) => `${key} = ${shown(value)}  (${from === d.file ? 'the file' : from})`),
  ];
  return {
    text: lines.join('\n'),
    data: { file: d.file, found: d.found, values: Object.fromEntries(values.map(([key, value, from]) => [key, { value, from }])) },
  };
}

/** Registers `config`; `beside` runs it as binder admin runs its other commands beside the catalog. */
export function addConfigCommand(admin: Command, beside: (run: () => Promise<number>) => void): void {
  admin.command('config')
    .description('The defaults in force (store, language, init\'s list, serve\'s HTTP options) and where each came from: flag, BINDER_* variable, $XDG_CONFIG_HOME/binder/config.toml, or default.')
    .addHelpText('after', '\nExample:\n  binder admin config')
    .action(() => beside(async () => {
      const g = admin.opts<Globals>();
      try {
        const { text, data } = inForce(g);
        process.stdout.write(g.json ? `${jsonDocument(data)}\n` : `${safeAnswer(text)}\n`);
        return 0;
      } catch (error) {
        if (!(error instanceof ConfigProblem)) throw error;
        process.stderr.write(`${safeSentence(error.message)}\n`);
        return 64;
      }
    }));
}
