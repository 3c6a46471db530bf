/**
 * The catalog's zod schemas, derived from `operations.ts`: one lenient schema per operation for
 * the keeper (what any client may send: `#12` or 12, a string or a list of words) and one clean
 * shape per agent operation for MCP tools. Never declared twice by hand.
 */
import { z } from 'zod';
import type { ArgSpec, OpSpec } from './operations.js';

/** Plain values only: an ask's text can never reach a prototype. */
const safeKey = (key: string): boolean => key !== '__proto__' && key !== 'constructor' && key !== 'prototype';

const text = z.union([z.string(), z.number().transform(String)]);
const words = z.union([text, z.array(text).transform((a) => a.join(' '))]);
const texts = z.union([text.transform((t) => [t]), z.array(text)]);
const flag = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);
/** A whole number from 0 (to `max`), or the same written as digits. */
const number = (arg: ArgSpec): z.ZodType => {
  const n = z.number().int().min(0).max(arg.max ?? Number.MAX_SAFE_INTEGER);
  return z.union([n, z.string().regex(/^\d{1,15}$/).transform(Number).pipe(n)]);
};

/** `{name: value}` or `["name=value", …]`, to a null-prototype object of strings. */
const fieldValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
/**
 * An object of field values, its own keys read as they are: a record schema copies them into a
 * plain object, where `__proto__` vanishes (it sets the copy's prototype) and an edit that said
 * it would seem to have asked for nothing.
 */
const plainValues = z.custom<Record<string, unknown>>((given) => given !== null && typeof given === 'object' && !Array.isArray(given)
  && Object.values(given).every((v) => fieldValue.safeParse(v).success));
const fieldValues = z
  .union([plainValues, z.array(z.string())])
  .transform((given, ctx) => {
    const out: Record<string, string> = Object.create(null);
    const pairs: [string, unknown][] = Array.isArray(given)
      ? given.map((p) => {
          const at = p.indexOf('=');
          return at < 1 ? ['', p] : [p.slice(0, at), p.slice(at + 1)];
        })
      : Object.entries(given);
    for (const [key, value] of pairs) {
      if (!key || !safeKey(key)) {
        ctx.addIssue({ code: 'custom', message: 'a field is given as name=value' });
        return z.NEVER;
      }
      out[key] = value === null ? '' : String(value);
    }
    return out;
  });

const lenient = (arg: ArgSpec): z.ZodType => {
  switch (arg.kind) {
    case 'text': return text;
    case 'words': return words;
    case 'record': return z.union([z.number().int(), z.string()]);
    case 'due': return z.union([z.string(), z.null().transform(() => '')]);
    case 'owners': return z.union([text.transform((t) => (t === 'none' || t === '' ? [] : [t])), z.array(text)]);
    case 'fields': return fieldValues;
    case 'texts': return texts;
    case 'choice': return z.enum(arg.choices as [string, ...string[]]);
    case 'flag': return flag;
    case 'number': return number(arg);
    default: {
      const never: never = arg.kind;
      throw new Error(`unknown argument kind ${String(never)}`);
    }
  }
};

const schemaCache = new Map<string, z.ZodType>();

/** What the keeper accepts for `op`: unknown keys dropped, forms normalised. */
export function askSchema(op: OpSpec): z.ZodType<Record<string, unknown>> {
  let schema = schemaCache.get(op.name);
  if (!schema) {
    const shape: Record<string, z.ZodType> = {};
    for (const [name, arg] of Object.entries(op.args)) {
      const one = lenient(arg);
      shape[name] = arg.required ? one : one.optional();
    }
    schema = z.object(shape);
    schemaCache.set(op.name, schema);
  }
  return schema as z.ZodType<Record<string, unknown>>;
}

/** How a face's callers may be held in a wait: at most `holdMaxMs` (MCP clients wait about a minute). */
export interface ToolOptions { holdMaxMs?: number }

interface ToolWords extends ToolOptions { hold?: string | undefined }

/** What an argument takes, said the way a tool's caller sends it (JSON, not a command line). */
function toolWords(name: string, arg: ArgSpec, options: ToolWords): string {
  switch (arg.kind) {
    case 'fields': return 'values by field name';
    case 'owners': return 'me or ids; [] for none';
    // How a record is named (12 or "#12") is said once, in the server's instructions.
    case 'record': return '';
    case 'text':
      if (name === options.hold && options.holdMaxMs !== undefined) {
        const most = `${Math.round(options.holdMaxMs / 1000)}s`;
        return `at most this long: ${most} (the default and the most)`;
      }
      return arg.describe;
    case 'texts': case 'choice': case 'flag': case 'number': case 'words': case 'due': return arg.describe;
    default: {
      const never: never = arg.kind;
      throw new Error(`unknown argument kind ${String(never)}`);
    }
  }
}

/** The MCP tool's input shape: what an agent is told to send, with a few words for each. */
export function toolShape(op: OpSpec, options: ToolOptions = {}): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  const words: ToolWords = { ...options, hold: op.holds };
  for (const [name, arg] of Object.entries(op.args)) {
    if (arg.hidden) continue;
    let one: z.ZodType;
    switch (arg.kind) {
      case 'owners': case 'texts': one = z.array(z.string()); break;
      case 'fields': one = z.record(z.string(), z.string()); break;
      case 'choice': one = z.enum(arg.choices as [string, ...string[]]); break;
      case 'flag': one = z.boolean(); break;
      // The keeper checks for a whole number and its largest: said here, it would cost every agent context.
      case 'number': one = z.number().min(0); break;
      case 'record': one = z.union([z.string(), z.number()]); break;
      // A text that may name a record (`wait`'s LIST|ID) takes its number as a number too.
      case 'text': one = /\bID\b/.test(arg.placeholder ?? '') ? z.union([z.string(), z.number()]) : z.string(); break;
      case 'words': case 'due': one = z.string(); break;
      default: {
        const never: never = arg.kind;
        throw new Error(`unknown argument kind ${String(never)}`);
      }
    }
    const said = toolWords(name, arg, words);
    if (said !== '') one = one.describe(said);
    shape[name] = arg.required ? one : one.optional();
  }
  return shape;
}

/**
 * The MCP tool's input schema: the shape as one object, without the `$schema` line the JSON
 * Schema would carry in every tool (tools/list sits in every agent's context: bytes count).
 */
export function toolSchema(op: OpSpec, options: ToolOptions = {}): z.ZodType {
  return z.object(toolShape(op, options)).meta({ $schema: undefined });
}

/** What each argument is, in French, for a person whose screen speaks French. */
const HINTS_FR: Readonly<Record<string, string>> = {
  list: 'la liste : son nom ou son identifiant', state: 'l\'état', text: 'le texte', title: 'le titre', note: 'une note',
  ref: 'un chemin, une URL, dépôt:branche, un identifiant de message ou un numéro de fiche', what: 'sa référence ou son numéro',
  next: 'la liste dont prendre la première fiche prête', label: 'des étiquettes : bug, +bug ou -bug', query: 'une requête', for: 'combien de temps : de 30m (par défaut) à 1d',
  on: 'seulement cette liste ou cette fiche (#12)', others: 'les fiches dont elle a besoin : 12 14', timeout: 'au plus ce temps : 60s (par défaut)', template: 'le modèle',
  agent: 'l\'agent : son nom ou son identifiant', dir: 'le dossier', name: 'le nom de l\'agent',
  addState: 'un état à ajouter à la fin', renameState: 'ANCIEN=NOUVEAU', moveState: 'NOM=N', removeState: 'un état vide',
  gate: 'un état dont faire une porte', ungate: 'un état qui n\'est plus une porte',
  addField: 'NOM:TYPE ou NOM:choice:a|b|c', removeField: 'un champ, retiré avec ses valeurs',
  peek: 'les plus récents d\'abord, comptés, sans rien marquer vu',
  expires: 'il cesse de valoir après ce temps : 30d, 12h…', token: 'le nom de l\'agent, ou le début du jeton',
};

const hintFr = (name: string, arg: ArgSpec): string => {
  switch (arg.kind) {
    case 'record': return 'la fiche : 12 ou #12';
    case 'due': return '2026-11-04 ou « 2026-11-04 09:00 » ; none pour l\'effacer';
    case 'owners': return 'me, un identifiant ou none';
    case 'fields': return 'des valeurs de champs, nom=valeur';
    case 'flag': return 'true ou false';
    case 'number': return 'un nombre entier';
    case 'choice': return `l'une de ces valeurs : ${(arg.choices ?? []).join(', ')}`;
    case 'text': case 'words': case 'texts': return HINTS_FR[name] ?? 'un texte';
    default: {
      const never: never = arg.kind;
      throw new Error(`unknown argument kind ${String(never)}`);
    }
  }
};

/** The first problem zod found, as a sentence for whoever sent it (in French for a French screen). */
export function explainIssue(op: OpSpec, error: z.ZodError, given: object, lang: 'en' | 'fr' = 'en'): string {
  const fr = lang === 'fr';
  const issue = error.issues[0];
  const name = issue?.path[0];
  if (typeof name === 'string' && Object.prototype.hasOwnProperty.call(op.args, name)) {
    const arg = op.args[name]!;
    const missing = !Object.prototype.hasOwnProperty.call(given, name) || (given as Record<string, unknown>)[name] === undefined;
    if (missing) return fr ? `Il manque l'argument ${name} pour ${op.name} (${hintFr(name, arg)}).` : `An ask to ${op.name} needs ${name} (${arg.describe}).`;
    const choices = (arg.choices ?? []).join(', ');
    if (arg.kind === 'choice') return fr ? `L'argument ${name} prend l'une de ces valeurs : ${choices}.` : `The ${name} must be one of: ${choices}.`;
    if (arg.kind === 'number') {
      const to = arg.max !== undefined ? [` to ${arg.max}`, ` à ${arg.max}`] : ['', ''];
      return fr ? `L'argument ${name} est un nombre entier de 0${to[1]}.` : `The ${name} must be a whole number from 0${to[0]}.`;
    }
    return fr ? `L'argument ${name} donné n'est pas compris : ${hintFr(name, arg)}.` : `The ${name} given is not understood: ${arg.describe}.`;
  }
  return fr ? `Les arguments de ${op.name} ne sont pas compris.` : `The arguments of ${op.name} are not understood.`;
}
