/**
 * The store's refusals, by name, in every language it speaks: a rule says `refusal('noList', ref)`
 * and never writes a sentence itself, as the screen takes its words from src/person/words-*.ts.
 */
import { Refused, type RefusalKind } from '../refused.js';
import type { Sentence } from '../sentence.js';
import { en, type RefusalWords } from './en.js';
import { fr } from './fr.js';

export { en, fr, type RefusalWords };

type Said = (...args: unknown[]) => string | Sentence;

/** The refusal named `name`, said with `args` in English and French; a rule of the binder's unless `kind` says otherwise. */
export function refusal<K extends keyof RefusalWords>(name: K, args: Parameters<RefusalWords[K]>, kind?: RefusalKind): Refused {
  return new Refused((en[name] as Said)(...args), (fr[name] as Said)(...args), kind);
}
