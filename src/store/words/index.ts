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

/** A language the store's refusals are said in. */
export type Language = 'en' | 'fr';

/** The refusal named `name`, said with `args` in English and French; a rule of the binder's unless `kind` says otherwise. */
export function refusal<K extends keyof RefusalWords>(name: K, args: Parameters<RefusalWords[K]>, kind?: RefusalKind): Refused {
  return new Refused((en[name] as Said)(...args), (fr[name] as Said)(...args), kind);
}

/**
 * A refusal whose words are made of several of the tables' (a line's number before another
 * refusal, a reason inside a sentence): `say` is given each language's words in turn.
 */
export function refusalSaid(say: (words: RefusalWords, language: Language) => string | Sentence, kind?: RefusalKind): Refused {
  return new Refused(say(en, 'en'), say(fr, 'fr'), kind);
}
