/**
 * The store over any engine: every operation of the rules bound to a transaction of the engine's.
 * A change runs in one write transaction; a read in a read transaction (one snapshot, no write
 * lock); changes are announced only after the outermost commit, and dropped when it (or the
 * savepoint that made them) rolls back. The rules are never written here: only how they are run
 * (store-run.ts), who may ask them (who-may.ts), and which member runs which (store-face.ts).
 */
import type { Context } from './context.js';
import { checkToken, noteTokenUse, tokenCheck, tokenHash, tokenRow, type TokenCheck, type TokenLooked, type TokenRow } from './tokens.js';
import { tokensAhead, type Presumed } from './token-ahead.js';
import { keptWhileUnchanged } from './unchanged.js';
import { sides } from './sides.js';
import type { Side } from './store-inputs.js';
import { ledgerOver, type Ledger } from './ledger.js';
import { tokenOrg } from './orgs.js';
import type { PeopleRules } from './people.js';
import { transactionsOver, type Pending } from './store-run.js';
import { ruledBy } from './who-may.js';
import { lazyFace, storeFace, type Runner } from './store-face.js';
import type { Engine } from './sql/port.js';
import type { Store } from './store.js';

export interface StoreOptions extends PeopleRules {
  /** The clock, in ms. */
  now?: () => number;
  /**
   * Called with a new agent token's hash, inside the transaction that makes it, before it
   * commits: an organisation's binder tells its service store which binder the token is in.
   */
  tokenMade?: (hash: string) => Promise<void>;
  /**
   * Called with a removed person's id inside the transaction that removes them: an organisation's
   * binder ends their sessions, which its service store keeps, as part of the removal.
   */
  personRemoved?: (id: string) => Promise<void>;
}

/** The ledger's reads that are one statement each: outside a transaction, they need none. */
const ONE_STATEMENT_READS = new Set<keyof Ledger>(['mark', 'recorded', 'open', 'untold', 'untoldSince', 'held']);

export function makeStore(engine: Engine, options: StoreOptions = {}): Store {
  const now = options.now ?? Date.now;
  const { outermost, savepoint, listeners, foldersSeen } = transactionsOver(engine, {
    now,
    ...(options.tokenMade ? { tokenMade: options.tokenMade } : {}),
    ...(options.personRemoved ? { personRemoved: options.personRemoved } : {}),
  });
  // Every request over HTTP looks its token up: where the engine says cheaply that nothing was
  // committed since, the row read then answers (a revocation is a commit, and expiry is checked
  // against the clock each time). One statement: on a server store, no transaction around it.
  // Where it cannot (a server), a request's look may go with its first statement (token-ahead.ts).
  const tokenRows = engine.version ? keptWhileUnchanged<TokenRow>(engine.version) : null;
  const ahead = engine.version ? null : tokensAhead(now);
  const ruled = ruledBy({ signedIn: options.signedIn === true } satisfies PeopleRules, ahead?.sendOwed);
  const lookToken = async (token: string): Promise<TokenLooked> => {
    const hash = tokenHash(token);
    if (hash === undefined) return tokenCheck(undefined, now());
    const look = (): Promise<TokenRow | undefined> => outermost((c) => tokenRow(c, hash), { mode: 'read', sync: false, single: true });
    const row = await (tokenRows ? tokenRows.read(hash, look) : look());
    const looked = tokenCheck(row, now());
    ahead?.seen(hash, row, looked);
    return looked;
  };
  /** A request's presumed check settled: by the look its first statement carried, or by one made now. */
  const settleToken = async (token: string, carried: TokenLooked | undefined): Promise<TokenCheck> => {
    const { check, used } = carried ?? await lookToken(token);
    if (used) await write(noteTokenUse)(used.hash, used.at);
    return check;
  };
  const presumeToken = (token: string): Presumed | undefined => ahead?.presume(token, settleToken);

  const single: Runner = (op) => (...args) => outermost((c) => ruled(c, op, args), { mode: 'read', sync: false, single: true });

  // The keeper reads the registered folders at every pass: on SQLite, what was read stands while
  // no other connection committed and no transaction of this store changed them (sides.ts says
  // so). Looked at in the transactions' turn: inside another transaction, `data_version` is that
  // transaction's, and would hide a commit made since it began.
  const othersVersion = engine.othersVersion?.bind(engine);
  let keptSides: { at: string; rows: Side[] } | null = null;
  const lookSides = async (): Promise<Side[]> => {
    const rows = await outermost(async (c) => {
      if (!othersVersion) return ruled(c, sides, []);
      const at = `${othersVersion()}.${foldersSeen()}`;
      if (keptSides?.at !== at) keptSides = { at, rows: await ruled(c, sides, []) };
      return keptSides.rows;
    }, { mode: 'read', sync: false, single: true });
    // Copies: what one caller does with its rows never reaches the next.
    return rows.map((side) => ({ ...side }));
  };

  const write: Runner = (op) => (...args) => outermost((c) => ruled(c, op, args), { mode: 'write' });
  const read: Runner = (op) => (...args) => outermost((c) => ruled(c, op, args), { mode: 'read', sync: false });
  const orgOfToken = (token: string) => outermost((c) => tokenOrg(c, token), { mode: 'read', sync: false, single: true });

  /**
   * The store inside one transaction: each operation in a savepoint of it. A read transaction
   * writes nothing a savepoint could undo: there, none is made (two round trips of a server's).
   */
  function bound(ctx: Context, pending: Pending, reading: boolean): Store {
    const within = <T>(fn: () => Promise<T>): Promise<T> => (reading ? fn() : savepoint(ctx.q, pending, fn));
    const inside: Runner = (op) => (...args) => within(() => ruled(ctx, op, args));
    const self: Store = lazyFace({ write: inside, read: inside, single: inside, lookToken: inside(checkToken), lookSides: inside(sides), listeners, engine }, {
      transaction: (fn) => within(() => fn(self)),
      ledger: ledgerOver(ctx.q),
      tokenOrg: orgOfToken,
      presumeToken: () => undefined,
    });
    return self;
  }

  // The ledger outside a transaction: each call in one of its own; a read of one statement in
  // none (the folder pump looks at a folder's mark at every pass).
  const looseLedger = new Proxy({} as Ledger, {
    get: (_t, key: keyof Ledger) => (...args: unknown[]) =>
      outermost((c) => (ledgerOver(c.q)[key] as (...a: unknown[]) => Promise<unknown>)(...args),
        ONE_STATEMENT_READS.has(key) ? { mode: 'read', sync: false, single: true } : { mode: 'write' }),
  });

  return storeFace({ write, read, single, lookToken, lookSides, listeners, engine }, {
    transaction: (fn, txOptions) => outermost((c, pending) => fn(bound(c, pending, txOptions?.mode === 'read')), { mode: 'write', ...txOptions }),
    ledger: looseLedger,
    tokenOrg: orgOfToken,
    presumeToken,
  });
}
