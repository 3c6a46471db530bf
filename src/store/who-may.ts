/**
 * Who may ask an operation, decided before it reads anything: what is a person's alone is refused
 * to an agent, whatever it sends; a person acts with their role (a removed person not at all),
 * and what is an admin's is refused to a member. Whose each operation is lives in whose.ts, the
 * table the catalog reads too; which rule runs which operation of that table is written here.
 */
import type { Context } from './context.js';
import { deleteList, deleteRecord } from './erase.js';
import { archiveList, createList, editList, grant } from './list-admin.js';
import { editNote } from './record-parts.js';
import { approve } from './records.js';
import { addSide, removeSide } from './sides.js';
import { exportBinder } from './exchange-out.js';
import { importBinder } from './exchange-in.js';
import { addToken, listTokens, revokeTokens } from './tokens.js';
import { addLoginLink, listSessions, revokeSessions } from './sessions.js';
import { actingRole, adminOnly, listPeople, operatorOnly, removePerson, setRole, signIn, type PeopleRules } from './people.js';
import { addHook, listHooks, removeHook, testHook } from './hooks.js';
import { personOnly } from './access.js';
import { adminWords, personsOperation } from './whose.js';
import type { Who } from './types.js';

/** An operation of the rules: its context first, then what it is asked with. */
export type Op<A extends unknown[], R> = (c: Context, ...args: A) => Promise<R>;

/** The rules that run a person's operation, by its name in whose.ts. */
const NAMED = new Map<Op<never[], unknown>, string>([
  [approve, 'approve'], [deleteRecord, 'delete'], [editNote, 'edit-note'],
  [createList, 'create-list'], [editList, 'edit-list'], [grant, 'grant'], [archiveList, 'archive-list'], [deleteList, 'delete-list'],
  [addSide, 'side-add'], [removeSide, 'side-remove'],
  [listTokens, 'token-list'], [addToken, 'token-add'], [revokeTokens, 'token-revoke'],
  [listPeople, 'people'], [setRole, 'set-role'], [removePerson, 'remove-person'],
  [addLoginLink, 'login-link'], [listSessions, 'sessions'], [revokeSessions, 'sessions-revoke'],
  [exportBinder, 'export'], [importBinder, 'import'],
  [listHooks, 'hook-list'], [addHook, 'hook-add'], [removeHook, 'hook-remove'], [testHook, 'hook-test'],
] as [Op<never[], unknown>, string][]);

/** Who asks an operation, if it takes an asker: every operation takes its asker as a Who. */
const askerOf = (args: readonly unknown[]): Who | undefined =>
  args.find((a): a is Who => typeof a === 'object' && a !== null && ((a as Who).kind === 'person' || (a as Who).kind === 'agent')
    && typeof (a as Who).id === 'string');

/**
 * Runs an operation as its asker may do it, under `rules`; `asked` is told of the asker first,
 * before any statement of the operation's (a token's look owed goes with the first: token-ahead.ts).
 */
export const ruledBy = (rules: PeopleRules, asked?: (c: Context, asker: Who | undefined) => void) =>
  async <A extends unknown[], R>(c: Context, op: Op<A, R>, args: A): Promise<R> => {
    // A sign-in is how a person comes to have a role: it decides its own (removed: refused).
    const asker = (op as unknown) === signIn ? undefined : askerOf(args);
    asked?.(c, asker);
    const name = NAMED.get(op as unknown as Op<never[], unknown>);
    const whose = name === undefined ? undefined : personsOperation(name);
    if (asker && whose && name !== undefined && asker.kind !== 'person') {
      personOnly(asker, adminWords(name).join(' '), (_, language) => whose.doing[language]);
    }
    if (asker?.kind === 'person') {
      const role = await actingRole(c, asker, rules);
      if (whose?.admin && role === 'member') throw adminOnly(whose.doing);
      // A directory of the server is named by its operator alone, where people sign in.
      if ((op as unknown) === addSide && whose) operatorOnly(asker, rules, whose.doing);
    }
    return op(c, ...args);
  };
