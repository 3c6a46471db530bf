/**
 * An agent token's look sent with its request's first statement, on a server engine: there, each
 * round trip costs the keeper a write that wakes the server, and a request over HTTP makes one
 * trip fewer with the token looked at inside its first.
 *
 * What is presumed is who the token was at its last look (its agent and prefix), only for a token
 * accepted then and not expired by the clock now. The look itself is made every time, sent just
 * before the request's first statement on its connection (in its transaction, where the request
 * runs in one; a record's page on PostgreSQL is one statement in none): the rules run as the
 * presumed asker, and when the look
 * says otherwise (revoked, expired, gone) the statement it went with fails, the transaction commits
 * nothing (it waits for every look's answer before its COMMIT), and the face answers as for a
 * refused token. Where no statement carried it, the face looks before
 * answering. So a revocation is seen at the very next check, as when the look comes first.
 */
import type { Context } from './context.js';
import { TokenLapsed } from './store.js';
import { TOKEN_ROW, tokenCheck, tokenHash, verifiedRow, type TokenCheck, type TokenLooked as Looked, type TokenRow } from './tokens.js';
import type { Who } from './types.js';

/** A token accepted at its last look: who it was, and until when the clock accepts it. */
interface Accepted { who: Who; prefix: string; expires: number | null }

/** A request's look, owed until one is answered. */
interface Owed { hash: string; presumed: Accepted; looked?: Looked }

/** A presumed check for one request: its asker, and the look's verdict before it is answered. */
export interface Presumed {
  check: { ok: true; who: Who; prefix: string };
  /** The token's check as looked at for this request (the face answers a refused one as such). */
  settle(): Promise<TokenCheck>;
}

export interface TokensAhead {
  /** What a look found (kept when accepted, let go otherwise). */
  seen(hash: string, row: TokenRow | undefined, looked: Looked): void;
  /** A presumed check of `token` for one request, or undefined where none is presumed. */
  presume(token: string, settleBy: (token: string, looked: Looked | undefined) => Promise<TokenCheck>): Presumed | undefined;
  /** Sends the look owed by `asker`, if any, before the transaction's next statement. */
  sendOwed(c: Context, asker: Who | undefined): void;
}

/** Beyond this many tokens, all are let go: a spray of made-up tokens keeps none (only accepted ones are kept). */
const KEPT_MAX = 1_000;

export function tokensAhead(now: () => number): TokensAhead {
  const accepted = new Map<string, Accepted>();
  const owed = new WeakMap<Who, Owed>();

  function seen(hash: string, row: TokenRow | undefined, looked: Looked): void {
    if (!looked.check.ok || !row) {
      accepted.delete(hash);
      return;
    }
    if (accepted.size >= KEPT_MAX && !accepted.has(hash)) accepted.clear();
    accepted.set(hash, { who: looked.check.who, prefix: looked.check.prefix, expires: row.expires });
  }

  function presume(token: string, settleBy: (token: string, looked: Looked | undefined) => Promise<TokenCheck>): Presumed | undefined {
    const hash = tokenHash(token);
    const presumed = hash === undefined ? undefined : accepted.get(hash);
    if (!presumed || (presumed.expires !== null && presumed.expires <= now())) return undefined;
    // One asker object a request: the look owed is this request's alone.
    const who: Who = { ...presumed.who };
    const owing: Owed = { hash: hash!, presumed };
    owed.set(who, owing);
    let settled: Promise<TokenCheck> | undefined;
    return {
      check: { ok: true, who, prefix: presumed.prefix },
      settle: () => (settled ??= settleBy(token, owing.looked)),
    };
  }

  function sendOwed(c: Context, asker: Who | undefined): void {
    const owing = asker === undefined ? undefined : owed.get(asker);
    // Sent with each operation of the asker's until one is answered: a transaction run again
    // after a conflict that came before the answer sends it again (a second look meanwhile costs
    // a statement, never a change made unlooked).
    if (!owing || owing.looked || !c.q.ahead) return;
    c.q.ahead<TokenRow>(TOKEN_ROW, [owing.hash], (found) => {
      const row = verifiedRow(found, owing.hash);
      const looked = tokenCheck(row, c.now());
      owing.looked = looked;
      seen(owing.hash, row, looked);
      const same = looked.check.ok && looked.check.who.id === owing.presumed.who.id && looked.check.prefix === owing.presumed.prefix;
      if (!same) throw new TokenLapsed(asker!);
    });
  }

  return { seen, presume, sendOwed };
}
