/**
 * Dispatch: one operation, as `who`, to an answer `{ok, text, data?}`. The one door through which
 * every ask and every person's action passes: unknown operations, a person's operations asked
 * by an agent, and malformed arguments are refused here, before the store is touched. It never
 * throws: a bug in an operation becomes a refusal and a line in the keeper's log. Refusals are
 * in English unless a person's screen asks for French; agents always read English.
 */
import type { Store } from '../store/store.js';
import { Refused } from '../store/store.js';
import type { Who } from '../store/types.js';
import { CATALOG } from './catalog.js';
import { operation, type OpName } from './operations.js';
import type { Answer } from './protocol.js';
import { askSchema, explainIssue } from './schemas.js';

export interface PerformOptions {
  store: Store;
  /** Where a bug's details go; the asker only reads that the operation failed. */
  log: (line: string) => void;
}

/** An operation's name as it may be quoted back: short, printable. */
const quoted = (op: unknown): string => String(op).replace(/[^\w.-]/g, '').slice(0, 40);

export function createPerform({ store, log }: PerformOptions) {
  return function perform(op: string, args: unknown, who: Who, want?: 'json', lang: 'en' | 'fr' = 'en'): Answer {
    const fr = lang === 'fr';
    const spec = typeof op === 'string' ? operation(op) : undefined;
    if (!spec) {
      return {
        ok: false,
        text: fr ? `Il n'y a aucune opération « ${quoted(op)} » : binder --help les énumère.`
          : `There is no operation "${quoted(op)}": binder --help lists them.`,
        refusal: 'unknown-op',
      };
    }
    if (who.kind !== 'person' && !spec.agents) {
      return {
        ok: false,
        text: fr
          ? `Seule une personne peut faire « ${spec.name} » : demandez à une personne de le faire sur son écran (binder tui) ou avec binder admin ${spec.name}.`
          : `Only a person can ${spec.title.toLowerCase()}: ask one to do it on their screen (binder tui) or with binder admin ${spec.name}.`,
        refusal: 'person-only',
      };
    }
    const given = args !== null && typeof args === 'object' && !Array.isArray(args) ? args : {};
    const parsed = askSchema(spec).safeParse(given);
    if (!parsed.success) return { ok: false, text: explainIssue(spec, parsed.error, given, lang), refusal: 'not-understood' };
    const ctx = { store };
    const catalogEntry = CATALOG[spec.name as OpName];
    try {
      const data = store.transaction(() => catalogEntry.run(parsed.data, who, ctx));
      const text = catalogEntry.say(data as never, parsed.data, who, ctx);
      return want === 'json' ? { ok: true, text, data } : { ok: true, text };
    } catch (error) {
      if (error instanceof Refused) return { ok: false, text: fr ? error.fr ?? error.message : error.message, refusal: error.kind };
      log(`binder: ${spec.name} by ${who.id} failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
      const full = /SQLITE_FULL|ENOSPC/.test(String((error as { code?: unknown })?.code ?? error));
      return {
        ok: false,
        text: fr
          ? (full
            ? 'Pas fait : le disque qui contient le binder est plein. Rien n\'a été changé ; recommencez quand une personne aura fait de la place.'
            : `Pas fait : ${spec.name} a échoué dans le gardien (son journal dit pourquoi). Rien n'a été changé.`)
          : (full
            ? 'Not done: the disk that holds the binder is full. Nothing was changed; ask again once a person has made room.'
            : `Not done: ${spec.name} failed inside the keeper (its log says why). Nothing was changed.`),
        refusal: 'failed',
      };
    }
  };
}

export type Perform = ReturnType<typeof createPerform>;
