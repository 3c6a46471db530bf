/**
 * Who may ask an operation, decided before it reads anything: a person acts with their role (a
 * removed person not at all), and what is an admin's is refused to a member. The operations
 * themselves decide what is a person's alone (an agent is refused there, whatever it sends).
 */
import type { Context } from './context.js';
import { deleteList } from './erase.js';
import { archiveList, createList, editList, grant } from './list-admin.js';
import { addSide, removeSide } from './sides.js';
import { importBinder } from './exchange-in.js';
import { addToken, revokeTokens } from './tokens.js';
import { actingRole, adminOnly, operatorOnly, removePerson, setRole, signIn, type AdminDoing, type PeopleRules } from './people.js';
import { addHook, listHooks, removeHook, testHook } from './hooks.js';
import type { Who } from './types.js';

/** An operation of the rules: its context first, then what it is asked with. */
export type Op<A extends unknown[], R> = (c: Context, ...args: A) => Promise<R>;

/** The operations only an admin may do, with the words that say so; every other is a member's too. */
const ADMIN_ONLY = new Map<Op<never[], unknown>, AdminDoing>([
  [createList, { en: 'make a list', fr: 'créer une liste' }],
  [editList, { en: 'change a list', fr: 'modifier une liste' }],
  [grant, { en: 'give an agent access to a list', fr: 'donner à un agent l\'accès à une liste' }],
  [archiveList, { en: 'archive or restore a list', fr: 'archiver ou restaurer une liste' }],
  [deleteList, { en: 'delete a list', fr: 'supprimer une liste' }],
  [addSide, { en: 'register an agent\'s folder', fr: 'inscrire le dossier d\'un agent' }],
  [removeSide, { en: 'stop the keeper reading an agent\'s folder', fr: 'arrêter la lecture du dossier d\'un agent' }],
  [addToken, { en: 'make an agent\'s token', fr: 'créer le jeton d\'un agent' }],
  [revokeTokens, { en: 'revoke an agent\'s token', fr: 'révoquer le jeton d\'un agent' }],
  [importBinder, { en: 'bring lists into the binder', fr: 'importer des listes dans le binder' }],
  [setRole, { en: 'change a person\'s role', fr: 'changer le rôle d\'une personne' }],
  [removePerson, { en: 'remove a person', fr: 'retirer une personne' }],
  [listHooks, { en: 'see the webhooks', fr: 'voir les crochets web' }],
  [addHook, { en: 'make a webhook', fr: 'créer un crochet web' }],
  [removeHook, { en: 'remove a webhook', fr: 'retirer un crochet web' }],
  [testHook, { en: 'try a webhook', fr: 'essayer un crochet web' }],
] as [Op<never[], unknown>, AdminDoing][]);

/** The person an operation is asked by, if it takes one: every operation takes its asker as a Who. */
const askerOf = (args: readonly unknown[]): Who | undefined =>
  args.find((a): a is Who => typeof a === 'object' && a !== null && (a as Who).kind === 'person' && typeof (a as Who).id === 'string');

/** Runs an operation as its asker may do it, under `rules`. */
export const ruledBy = (rules: PeopleRules) =>
  async <A extends unknown[], R>(c: Context, op: Op<A, R>, args: A): Promise<R> => {
    // A sign-in is how a person comes to have a role: it decides its own (removed: refused).
    const asker = (op as unknown) === signIn ? undefined : askerOf(args);
    if (asker) {
      const role = await actingRole(c, asker, rules);
      const doing = ADMIN_ONLY.get(op as unknown as Op<never[], unknown>);
      if (doing && role === 'member') throw adminOnly(doing);
      // A directory of the server is named by its operator alone, where people sign in.
      if ((op as unknown) === addSide && doing) operatorOnly(asker, rules, doing);
    }
    return op(c, ...args);
  };
