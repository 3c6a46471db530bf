/**
 * The one error a person or an agent can cause: a refusal, with the sentence they read and what it
 * is about. Every rule throws it; every face says it in its own terms. Anything else is a bug.
 */
import { commandLine, withSteps, written, type Sentence } from './sentence.js';

/**
 * A refusal a person or an agent can cause: its message is the sentence they read, in English;
 * `fr` is the same sentence for a person whose screen speaks French (agents always read English).
 * A sentence that names next steps keeps them as data (`sentence`, `frSentence`), for each face to write
 * in its own terms; its message writes them as a command line.
 */
export class Refused extends Error {
  override readonly name = 'Refused';
  readonly fr: string | undefined;
  /** The English sentence with its steps, when it names any. */
  readonly sentence: Sentence | undefined;
  readonly frSentence: Sentence | undefined;
  /** What it is about, for a face that says so with a status (HTTP): a rule unless said. */
  readonly kind: RefusalKind;

  constructor(message: string | Sentence, fr: string | Sentence, kind: RefusalKind = 'rule') {
    super(written(message, commandLine));
    this.fr = written(fr, commandLine);
    this.sentence = withSteps(message);
    this.frSentence = withSteps(fr);
    this.kind = kind;
  }
}

/**
 * `rule`: the binder's rules say no (a gate, a claim, a state that does not exist); `access`: the
 * asker may not see or change it (said alike whether it exists or not); `not-understood`: a
 * value given is not one the operation reads.
 */
export type RefusalKind = 'rule' | 'access' | 'not-understood';
