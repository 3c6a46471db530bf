/**
 * Dispatch: one operation, as `who`, to an answer `{ok, text, data?}`. The one door through which
 * every ask and every person's action passes: unknown operations, a person's operations asked
 * by an agent, and malformed arguments are refused here, before the store is touched. It never
 * throws: a bug in an operation becomes a refusal and a line in the keeper's log. Refusals are
 * in English unless a person's screen asks for French; agents always read English.
 */
import { mustRethrow, Refused, type Store, StoreUnavailable, TokenLapsed, TransactionConflict, type Who } from '../store/index.js';
import { CATALOG } from './catalog.js';
import { adminWords, onlyAPerson, operation, type OpName } from './operations.js';
import { UNAVAILABLE_TEXT, type Answer } from './protocol.js';

/** The store could not keep this change apart from others' after several tries: nothing was done. */
export const BUSY_STORE_TEXT = 'The binder is too busy to do it now: nothing was done; ask again in a moment.';
import { askSchema, explainIssue } from './schemas.js';
import { DISK_FULL_TEXT } from './pump-types.js';
import { terminalSafe } from './terminal-safe.js';
import { written, type Sentence } from '../store/light.js';
import { commandStep } from './step-words.js';
import { toldAs } from './text-values.js';

/** A refusal's sentence in the asker's language, its steps written for the command line and kept as data. */
export function refusedAs(error: Refused, fr: boolean): { text: string; sentence?: Sentence } {
  const words = fr ? error.frSentence : error.sentence;
  if (!words) return { text: fr ? error.fr ?? error.message : error.message };
  return { text: written(words, commandStep), sentence: words };
}

export interface PerformOptions {
  store: Store;
  /** Where a bug's details go; the asker only reads that the operation failed. */
  log: (line: string) => void;
}

/** An operation's name as it may be quoted back: on one line, short, made safe. */
const quoted = (op: unknown): string => Array.from(terminalSafe(String(op)).trim()).slice(0, 40).join('').replace(/"/g, "'");

/** Operations an agent reads that still write a little: they lapse old claims, or move the asker's place in the history. */
const WRITES_A_LITTLE = new Set<string>(['ready', 'brief', 'wait']);

export function createPerform({ store, log }: PerformOptions) {
  /**
   * `inside`: the store of a transaction the operation joins (as a savepoint: its failure undoes
   * it alone), as the folder pump does each ask of a pass in one transaction.
   */
  return async function perform(op: string, args: unknown, who: Who, want?: 'json', lang: 'en' | 'fr' = 'en', inside?: Store): Promise<Answer> {
    const fr = lang === 'fr';
    const spec = typeof op === 'string' ? operation(op) : undefined;
    if (!spec) {
      // `side add`, as binder admin spells it, is the operation side-add.
      const meant = typeof op === 'string' ? operation(op.trim().replace(/\s+/g, '-')) : undefined;
      const asked = who.kind !== 'person' && meant && !meant.agents ? onlyAPerson(meant) : undefined;
      if (asked) return { ok: false, text: asked, refusal: 'person-only' };
      const also = meant && !asked ? [` (did you mean ${meant.name}?)`, ` (vouliez-vous dire ${meant.name} ?)`] : ['', ''];
      return {
        ok: false,
        text: fr ? `Il n'y a aucune opération « ${quoted(op)} »${also[1]} : binder --help les énumère.`
          : `There is no operation "${quoted(op)}"${also[0]}: binder --help lists them.`,
        refusal: 'unknown-op',
      };
    }
    if (who.kind !== 'person' && !spec.agents) {
      return {
        ok: false,
        text: fr
          ? `Seule une personne peut faire « ${spec.name} » : demandez à une personne de le faire sur son écran (binder tui) ou avec binder admin ${adminWords(spec).join(' ')}.`
          : onlyAPerson(spec),
        refusal: 'person-only',
      };
    }
    const given = args !== null && typeof args === 'object' && !Array.isArray(args) ? args : {};
    const parsed = askSchema(spec).safeParse(given);
    if (!parsed.success) return { ok: false, text: explainIssue(spec, parsed.error, given, lang), refusal: 'not-understood' };
    const catalogEntry = CATALOG[spec.name as OpName];
    // Reads run in a read transaction (one snapshot, no write lock), but those that write a little;
    // one read of the store's runs as the store runs it (CatalogEntry.oneRead).
    const mode = spec.readOnly && !WRITES_A_LITTLE.has(spec.name) ? 'read' : 'write';
    const done = async (on: Store) => {
      const ctx = { store: on };
      const made = await catalogEntry.run(parsed.data, who, ctx);
      return { data: made, told: await catalogEntry.say(made as never, parsed.data, who, ctx) };
    };
    try {
      const { data, told } = catalogEntry.oneRead && !inside ? await done(store)
        : await (inside ?? store).transaction(done, { mode, ...(mode === 'read' ? { sync: false } : {}) });
      return { ok: true, ...toldAs(told), ...(want === 'json' ? { data } : {}) };
    } catch (error) {
      if (error instanceof Refused) return { ok: false, ...refusedAs(error, fr), refusal: error.kind };
      // Inside another's transaction, these are that transaction's: it runs again, or fails whole.
      if (inside && mustRethrow(error)) throw error;
      // The asker's token, presumed and looked at with this operation's first statement, lapsed:
      // nothing was done, and the face answers as for a refused token (http/auth.ts).
      if (error instanceof TokenLapsed) return { ok: false, text: error.message, refusal: 'access' };
      if (error instanceof StoreUnavailable) {
        log(`binder: ${spec.name} by ${who.id}: ${error.message}`);
        return { ok: false, text: fr ? 'La base du binder est injoignable pour l\'instant : rien n\'a été fait ; redemandez dans un moment.' : UNAVAILABLE_TEXT, refusal: 'stopped' };
      }
      // Another process (binder admin, a backup) held the SQLite file past its wait: nothing was done.
      if (error instanceof TransactionConflict || /^SQLITE_BUSY/.test(String((error as { code?: unknown })?.code ?? ''))) {
        return { ok: false, text: fr ? 'Le binder est trop occupé pour le faire maintenant : rien n\'a été fait ; redemandez dans un moment.' : BUSY_STORE_TEXT, refusal: 'busy' };
      }
      log(`binder: ${spec.name} by ${who.id} failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
      const full = /SQLITE_FULL|ENOSPC/.test(String((error as { code?: unknown })?.code ?? error));
      return {
        ok: false,
        text: fr
          ? (full
            ? 'Le disque qui contient le binder est plein : rien n\'a été changé ; recommencez quand une personne aura fait de la place.'
            : `Le gardien a échoué sur ${spec.name} (son journal dit pourquoi) : rien n'a été changé.`)
          : (full ? DISK_FULL_TEXT : `The keeper failed on ${spec.name} (its log says why): nothing was changed.`),
        refusal: 'failed',
      };
    }
  };
}

export type Perform = ReturnType<typeof createPerform>;
