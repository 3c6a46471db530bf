/**
 * Whose each operation is, when it is not everyone's: a person's alone (an agent is refused it,
 * whatever it sends), and among those an admin's (a member of the binder is refused it too). One
 * table, by operation name, read by the catalog (which operations an agent's faces show, and
 * what an agent is told when it asks for one) and by the store (who-may.ts, which refuses them).
 * Plain data: the agent's command loads it with the catalog, on every call.
 */

/** A person's operation: what it does, in words that complete "Only a person can …". */
export interface PersonsOperation {
  /** A member of the binder is refused it too: an admin's alone. */
  readonly admin?: true;
  /** Completes "Only a person can …" and "Only an admin of this binder can …", a verb first. */
  readonly doing: { readonly en: string; readonly fr: string };
  /** How `binder admin` spells it, where that is not its name (`side add`, `sessions --revoke`). */
  readonly words?: string;
}

/**
 * The operations that are a person's alone. The catalog's are named as the catalog names them;
 * the others are the store's alone (sessions, exchange, webhooks), which `binder admin` and the
 * page reach without the catalog.
 */
export const PERSONS_OPERATIONS: Readonly<Record<string, PersonsOperation>> = {
  // The catalog's.
  'approve': { doing: { en: 'approve a record or withdraw its approval', fr: 'approuver une fiche ou retirer son approbation' } },
  'delete': { doing: { en: 'delete a record', fr: 'supprimer une fiche' } },
  'edit-note': { doing: { en: 'rewrite a note', fr: 'réécrire une note' } },
  'templates': { doing: { en: 'list the templates lists are made from', fr: 'énumérer les modèles dont les listes sont faites' } },
  'create-list': { admin: true, doing: { en: 'make a list', fr: 'créer une liste' } },
  'edit-list': { admin: true, doing: { en: 'change a list\'s states, gate, fields or title', fr: 'modifier les états, la porte, les champs ou le titre d\'une liste' } },
  'grant': { admin: true, doing: { en: 'give an agent access to a list', fr: 'donner à un agent l\'accès à une liste' } },
  'archive-list': { admin: true, doing: { en: 'archive or restore a list', fr: 'archiver ou restaurer une liste' } },
  'delete-list': { admin: true, doing: { en: 'delete a list', fr: 'supprimer une liste' } },
  'sides': { doing: { en: 'see the agents\' folders the keeper reads', fr: 'voir les dossiers des agents que le keeper lit' } },
  'side-add': { admin: true, doing: { en: 'register an agent\'s folder', fr: 'inscrire le dossier d\'un agent' } },
  'side-remove': { admin: true, doing: { en: 'stop the keeper reading an agent\'s folder', fr: 'arrêter la lecture du dossier d\'un agent' } },
  'token-list': { doing: { en: 'see the agents\' tokens for HTTP', fr: 'voir les jetons des agents pour HTTP' } },
  'token-add': { admin: true, doing: { en: 'make an agent\'s token for HTTP', fr: 'créer le jeton d\'un agent pour HTTP' } },
  'token-revoke': { admin: true, doing: { en: 'revoke an agent\'s token', fr: 'révoquer le jeton d\'un agent' } },
  'people': { doing: { en: 'see the binder\'s people', fr: 'voir les personnes du binder' } },
  'set-role': { admin: true, doing: { en: 'change a person\'s role', fr: 'changer le rôle d\'une personne' } },
  'remove-person': { admin: true, doing: { en: 'remove a person from the binder', fr: 'retirer une personne du binder' } },
  // The store's alone.
  'login-link': { doing: { en: 'make a login link', fr: 'créer un lien de connexion' } },
  'sessions': { doing: { en: 'see the page\'s sessions', fr: 'voir les sessions de la page' } },
  'sessions-revoke': { doing: { en: 'end a session of the page', fr: 'fermer une session de la page' }, words: 'sessions --revoke' },
  'export': { doing: { en: 'export the binder', fr: 'exporter le binder' } },
  'import': { admin: true, doing: { en: 'bring lists into the binder', fr: 'importer des listes dans le binder' } },
  'hook-list': { admin: true, doing: { en: 'see the webhooks', fr: 'voir les crochets web' } },
  'hook-add': { admin: true, doing: { en: 'make a webhook', fr: 'créer un crochet web' } },
  'hook-remove': { admin: true, doing: { en: 'remove a webhook', fr: 'retirer un crochet web' } },
  'hook-test': { admin: true, doing: { en: 'try a webhook', fr: 'essayer un crochet web' } },
};

/** The operation of that name if it is a person's alone (never a prototype property). */
export const personsOperation = (name: string): PersonsOperation | undefined =>
  (Object.hasOwn(PERSONS_OPERATIONS, name) ? PERSONS_OPERATIONS[name] : undefined);

/** The groups of `binder admin`'s words: `side add`, `token list`, `hook test`… */
const ADMIN_GROUPS = ['side', 'token', 'hook'] as const;

/** The words of `binder admin` that run the operation of that name. */
export function adminWords(name: string): string[] {
  const words = personsOperation(name)?.words;
  if (words) return words.split(' ');
  const group = ADMIN_GROUPS.find((g) => name.startsWith(`${g}-`));
  return group ? [group, name.slice(group.length + 1)] : [name];
}
