/**
 * The steps an answer names, said in MCP's terms. The keeper writes each next step as the command
 * line reads (`binder take --next batches`, `binder release 3`); through MCP it reads as the tool
 * call (`take {"next": "batches"}`), made from the catalog's argument specs — the one place that
 * says what each verb takes. Someone's text is never rewritten: the keeper writes `binder ` inside
 * a value with a no-break space, and steps are looked for outside double quotes (refusals quote
 * what they were given). A person's commands (`binder admin …`, `binder tui`) stay as they are.
 */
import { operation, type ArgSpec, type OpSpec } from '../keeper/operations.js';
import { asWritten } from '../keeper/text-values.js';

const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const STEP = 'binder ';
/** What may stand just before a step: nothing, a space, or an opening mark. */
const BEFORE = /[\s(`]/;
/** A word's end that ends the step too: a sentence's punctuation. */
const CLOSING = /[.,;:)]+$/;

interface Word { text: string; end: number; last: boolean; quoted: boolean }

/** The word at `at` (one space before each), or null at a line's end. */
function wordAt(text: string, at: number): Word | null {
  if (text[at] !== ' ') return null;
  const from = at + 1;
  const first = text[from];
  if (first === undefined || /\s/.test(first)) return null;
  if (first === '"' || first === "'") {
    const close = text.indexOf(first, from + 1);
    if (close < 0 || text.slice(from, close).includes('\n')) return null;
    const after = /^[.,;:)]*/.exec(text.slice(close + 1))![0];
    const next = text[close + 1 + after.length];
    if (next !== undefined && !/\s/.test(next)) return null;
    return { text: text.slice(from + 1, close), end: close + 1, last: after.length > 0, quoted: true };
  }
  let end = from;
  while (end < text.length && !/\s/.test(text[end]!)) end++;
  const raw = text.slice(from, end);
  const cut = CLOSING.exec(raw);
  const word = cut ? raw.slice(0, raw.length - cut[0].length) : raw;
  if (word === '') return null;
  return { text: word, end: from + word.length, last: cut !== null, quoted: false };
}

/** An argument's value as it reads in a call: a placeholder (`LIST`) bare, a number as a number. */
function valueOf(arg: ArgSpec, word: Word): string | null {
  if (!word.quoted && arg.placeholder !== undefined && word.text === arg.placeholder) return word.text;
  switch (arg.kind) {
    case 'record': return /^#?\d{1,15}$/.test(word.text) ? String(Number(word.text.replace('#', ''))) : null;
    case 'number': return /^\d{1,15}$/.test(word.text) ? word.text : null;
    case 'choice': return arg.choices?.includes(word.text) ? JSON.stringify(word.text) : null;
    case 'text': case 'words': case 'due': return !word.quoted && word.text.startsWith('(') ? null : JSON.stringify(word.text);
    case 'owners': case 'texts': case 'fields': case 'flag': return null;
    default: {
      const never: never = arg.kind;
      throw new Error(`unknown argument kind ${String(never)}`);
    }
  }
}

/** The step of `op` whose words start at `at` (after `binder VERB`): its call and where it ends, or null. */
function readStep(op: OpSpec, text: string, at: number): { call: string; end: number } | null {
  const positionals = Object.entries(op.args).filter(([, a]) => a.positional && !a.hidden);
  const flags = new Map(Object.entries(op.args).filter(([, a]) => !a.positional && !a.hidden).map(([n, a]) => [`--${a.flag ?? kebab(n)}`, [n, a] as const]));
  const given: [string, string][] = [];
  let end = at;
  let next = 0;
  for (let word = wordAt(text, end); word; word = wordAt(text, end)) {
    const flag = word.quoted ? undefined : flags.get(word.text);
    if (flag) {
      const [name, arg] = flag;
      if (arg.kind === 'flag') {
        given.push([name, 'true']);
        end = word.end;
      } else {
        const value = word.last ? null : wordAt(text, word.end);
        const shown = value ? valueOf(arg, value) : null;
        if (!value || shown === null) return null;
        given.push([name, shown]);
        end = value.end;
        if (value.last) break;
      }
    } else {
      const spec = positionals[next];
      if (!spec || word.text.startsWith('--')) break;
      const [name, arg] = spec;
      let shown = valueOf(arg, word);
      if (shown === null) break;
      end = word.end;
      // The remaining words, up to a flag or the sentence's end, are one (a title, a note).
      if (arg.kind === 'words' && !word.last && shown !== arg.placeholder) {
        const all = [word.text];
        for (let more = wordAt(text, end); more && !more.text.startsWith('--'); more = wordAt(text, end)) {
          all.push(more.text);
          end = more.end;
          if (more.last) { word = more; break; }
        }
        shown = JSON.stringify(all.join(' '));
      }
      given.push([name, shown]);
      next++;
    }
    if (word.last) break;
  }
  const missing = positionals.some(([name, arg]) => arg.required && !given.some(([n]) => n === name));
  if (missing) return null;
  const args = given.map(([name, value]) => `"${name}": ${value}`).join(', ');
  return { call: `\`${op.name}${args ? ` {${args}}` : ''}\``, end };
}

/** `text` with every step it names written as the MCP tool call; someone's text as they wrote it. */
export function mcpSteps(text: string): string {
  let out = '';
  let quoted = false;
  let at = 0;
  while (at < text.length) {
    const c = text[at]!;
    if (c === '"') quoted = !quoted;
    else if (c === '\n') quoted = false;
    else if (!quoted && text.startsWith(STEP, at) && (at === 0 || BEFORE.test(text[at - 1]!))) {
      const verb = wordAt(text, at + STEP.length - 1);
      if (verb && verb.text === '--help') {
        out += '`tools/list`';
        at = verb.end;
        continue;
      }
      const op = verb && !verb.quoted ? operation(verb.text) : undefined;
      const step = op?.agents ? readStep(op, text, verb!.end) : null;
      if (step) {
        out += step.call;
        at = step.end;
        continue;
      }
    }
    out += c;
    at++;
  }
  return asWritten(out);
}
