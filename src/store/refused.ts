/**
 * The one error a person or an agent can cause: a refusal, with the sentence they read and what it
 * is about. Every rule throws it; every face says it in its own terms. Anything else is a bug.
 */

/**
 * A refusal a person or an agent can cause: its message is the sentence they read, in English;
 * `fr` is the same sentence for a person whose screen speaks French (agents always read English).
 */
export class Refused extends Error {
  override readonly name = 'Refused';
  readonly fr: string | undefined;
  /** What it is about, for a face that says so with a status (HTTP): a rule unless said. */
  readonly kind: RefusalKind;

  constructor(message: string, fr: string, kind: RefusalKind = 'rule') {
    super(message);
    this.fr = fr;
    this.kind = kind;
  }
}

/**
 * `rule`: the binder's rules say no (a gate, a claim, a state that does not exist); `access`: the
 * asker may not see or change it (said alike whether it exists or not); `not-understood`: a
 * value given is not one the operation reads.
 */
export type RefusalKind = 'rule' | 'access' | 'not-understood';
