/**
 * Which format a file is in, from its content when the person did not say: Binder's own export
 * says so on its first line; Beads' JSON Lines hold issues with an id, a title and a status;
 * Taskwarrior's export is an array of tasks with a uuid and a description; GitHub's (`gh issue
 * list --json …`) an array of issues with a number and a title; anything else with a header line
 * is CSV. It never guesses between two: what fits none is refused with a sentence.
 */
import { extname } from 'node:path';
import { type ImportFormat, Refused } from '../store/index.js';
import { children, parsed, topValues } from './json-scan.js';
import { isBinderJson } from './read-binder.js';

const unknown = (file: string): Refused => new Refused(
  `Binder cannot tell what ${file} holds: say it with --format json|csv|taskwarrior|beads|github.`,
  `Binder ne reconnaît pas le contenu de ${file} : indiquez-le avec --format json|csv|taskwarrior|beads|github.`,
);

const has = (value: unknown, ...keys: string[]): boolean =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && keys.every((k) => Object.hasOwn(value, k));

export function sniff(text: string, file: string): ImportFormat {
  if (isBinderJson(text)) return 'binder';
  const start = text.replace(/^\uFEFF/, '').trimStart();
  if (start.startsWith('{')) {
    const first = topValues(text)[0];
    const value = first ? parsed(text, first) : undefined;
    if (has(value, 'id', 'title') && (has(value, 'status') || has(value, 'issue_type'))) return 'beads';
    throw unknown(file);
  }
  if (start.startsWith('[')) {
    const top = topValues(text)[0]!;
    const first = children(text, top).next();
    if (first.done) {
      throw new Refused(`${file} is an empty list: there is nothing to import.`, `${file} est une liste vide : il n'y a rien à importer.`);
    }
    const value = parsed(text, first.value);
    if (has(value, 'uuid', 'description')) return 'taskwarrior';
    if (has(value, 'number', 'title')) return 'github';
    throw unknown(file);
  }
  const header = start.split(/\r?\n/, 1)[0] ?? '';
  if (extname(file).toLowerCase() === '.csv' || /,/.test(header)) return 'csv';
  throw unknown(file);
}
