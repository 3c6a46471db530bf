/**
 * The words only the web page says (signing in, the connection, buttons a terminal has no need
 * of), in English and French: a word missing in one language is a type error. Everything the
 * screen also says comes from the screen's own tables (src/person/words*.ts), never copied here.
 */
import type { ArgName, Lang, Words } from '../person/words.js';

export interface PageWords {
  signIn: { title: string; text: string; working: string; failed: string; with(provider: string): string; signedOut: string; providerToo(provider: string): string };
  signedInAs(name: string, email?: string): string;
  signOut: string;
  language: string;
  /** The browser's notifications of work that comes to the person: the button that asks for them, and what it says after. */
  notify: { ask: string; on: string; denied: string };
  /** The webhooks' delivery log, an admin's: each hook, and how its latest deliveries went. */
  hooks: {
    title: string;
    none: string;
    events: string;
    list: string;
    everyList: string;
    deliveries: string;
    noDelivery: string;
    columns: { at: string; event: string; record: string; outcome: string; error: string };
    outcome: { sent: string; 'given up': string; waiting: string };
    tries(n: number): string;
  };
  skip: string;
  link: { connecting: string; live: string; lost: string };
  loading: string;
  close: string;
  save: string;
  cancel: string;
  confirm: string;
  remove: string;
  more(n: number): string;
  board: string;
  table: string;
  records(list: string): string;
  dragHint: string;
  moveTo: string;
  openRecord(id: number, title: string): string;
  agents: string;
  folders: string;
  tokens: string;
  tokenShown: string;
  tokenFor(name: string): string;
  noTokens: string;
  revoke: string;
  revoked: string;
  expires(at: string): string;
  usedAt(at: string): string;
  notUsed: string;
  knownAgents: string;
  agentName: string;
  newList: string;
  listTitleOptional: string;
  filters: string;
  filteredBy(said: string): string;
  clearFilters: string;
  parts: string;
  accessKeys: string;
  editorKeys: string;
  approve: string;
  withdraw: string;
  takeAway: string;
  opensAt(ref: string): string;
  noteText: string;
  typed: string;
  deleteList: string;
  archiveList: string;
  restoreList: string;
  keysTitle: string;
  people: {
    title: string;
    role: { admin: string; member: string };
    you: string;
    youAre(role: 'admin' | 'member'): string;
    makeAdmin: string;
    makeMember: string;
    remove: string;
    confirmRemove(name: string): string;
    confirmRole(name: string, role: 'admin' | 'member'): string;
    roleSet(name: string, role: 'admin' | 'member'): string;
    removed(name: string): string;
    membersSee: string;
    keys: string;
  };
  /** Why a member sees an admin's action disabled or not at all. */
  adminOnly: string;
  menu: string;
  failed(status: number): string;
  /** The button that sends a form that makes something: a record, a note, a folder. */
  add: string;
  make: string;
  /** The phone's menu button, and the tabs of a list's states. */
  menuButton: string;
  states: string;
  /** The empty binder: what a list is for, and how to begin. */
  emptyBinder: string;
  /** A table's column of records' numbers. */
  number: string;
  /** The signs at a board's edges that columns are hidden past them: a button that scrolls to the next. */
  statesBefore(n: number): string;
  statesAfter(n: number): string;
  /** On a phone, the button that shows a list's rarer tools. */
  moreTools: string;
  /** What a record needs: the words that find the records to pick from. */
  needsFind: { label: string; hint: string };
  /** Hints under a new record's fields (and a record's parent, edited too), where the catalog's (written for a command line) say less than a person needs. */
  hints: Partial<Record<ArgName, string>>;
}

const en: PageWords = {
  hooks: {
    title: 'Webhooks',
    none: 'No webhook is made: binder admin hook add URL makes one.',
    events: 'Events',
    list: 'List',
    everyList: 'every list',
    deliveries: 'Latest deliveries, newest first',
    noDelivery: 'Nothing was sent to it yet.',
    columns: { at: 'When', event: 'Event', record: 'Record', outcome: 'Status', error: 'Error' },
    outcome: { sent: 'sent', 'given up': 'given up', waiting: 'tried again soon' },
    tries: (n) => (n === 1 ? '1 try' : `${n} tries`),
  },
  notify: { ask: 'Tell me in this browser', on: 'This browser tells you of work that waits for you.', denied: 'This browser was told not to show Binder\'s notifications: its site settings allow them again.' },
  signIn: {
    title: 'Sign in',
    text: 'This page is a person\'s. Open a login link from binder admin login-link (the screen and binder serve --http show one at start): it signs this browser in.',
    working: 'Signing in…',
    failed: 'This link did not sign you in:',
    with: (provider) => `Sign in with ${provider}`,
    signedOut: 'Signed out of this binder.',
    providerToo: (provider) => `Sign out of ${provider} too`,
  },
  signedInAs: (name, email) => `Signed in as ${name}${email ? ` <${email}>` : ''}`,
  signOut: 'Sign out',
  language: 'Language',
  skip: 'Skip to the records',
  link: { connecting: 'Connecting…', live: 'Live', lost: 'Lost the server: reconnecting by itself…' },
  loading: 'Loading…',
  close: 'Close',
  save: 'Save',
  cancel: 'Cancel',
  confirm: 'Confirm',
  remove: 'Remove',
  more: (n) => `Show ${n} more`,
  board: 'Board',
  table: 'Table',
  records: (list) => `Records of ${list}`,
  dragHint: 'Drag a card to another state, or select it and press < or > (m to pick a state).',
  moveTo: 'Move to',
  openRecord: (id, title) => `#${id} ${title}`,
  agents: 'Agents',
  folders: 'Agent folders',
  tokens: 'Agent tokens (HTTP)',
  tokenShown: 'Shown this once: copy it now and give it to that agent alone. It asks with the header Authorization: Bearer <token>.',
  tokenFor: (name) => `Token for ${name}`,
  noTokens: 'No token yet.',
  revoke: 'Revoke',
  revoked: 'revoked',
  expires: (at) => `expires ${at}`,
  usedAt: (at) => `last used ${at}`,
  notUsed: 'never used',
  knownAgents: 'Agents\' access to this list',
  agentName: 'Agent\'s name',
  newList: 'New list',
  listTitleOptional: 'Title (the template\'s if empty)',
  filters: 'Filters',
  filteredBy: (said) => `Shown: ${said}.`,
  clearFilters: 'Show every record',
  accessKeys: '↑ ↓ (or j k) go over the agents; ← → (or h l) give the one under the cursor less or more access.',
  editorKeys: '↑ ↓ go over the rows; e renames the list, v board or table, c children first or not, n adds a state, f a field; on a state: Enter renames it, g gate on or off, < > earlier or later, D removes it (and a field).',
  parts: 'Use ↑ ↓ (or j k) to go over the records under it, its notes, attached things and the records it needs: E edits your note, T detaches, Enter opens a record.',
  approve: 'Approve',
  withdraw: 'Withdraw approval',
  takeAway: 'Take the claim away',
  opensAt: (ref) => `opens ${ref}`,
  noteText: 'Note',
  typed: 'List title',
  deleteList: 'Delete the list',
  archiveList: 'Archive the list',
  restoreList: 'Restore the list',
  keysTitle: 'Keys',
  people: {
    title: 'People',
    role: { admin: 'admin', member: 'member' },
    you: '(you)',
    youAre: (role) => (role === 'admin' ? 'You are an admin of this binder.' : 'You are a member of this binder.'),
    makeAdmin: 'Make admin',
    makeMember: 'Make member',
    remove: 'Remove',
    confirmRemove: (name) => `Remove ${name} from this binder? They are refused from now on; what they did stays in the history.`,
    confirmRole: (name, role) => `Make ${name} ${role === 'admin' ? 'an admin' : 'a member'} of this binder?`,
    roleSet: (name, role) => `${name} is ${role === 'admin' ? 'an admin' : 'a member'} of this binder now.`,
    removed: (name) => `Removed ${name}: what they did stays in the history.`,
    membersSee: 'Only an admin changes a role or removes a person.',
    keys: '↑ ↓ choose a person, R makes them admin or member, D removes them (asked first).',
  },
  adminOnly: 'Only an admin of this binder changes lists, agents\' access, folders and tokens: ask an admin.',
  menu: 'Lists and views',
  failed: (status) => `The server answered ${status}.`,
  add: 'Add',
  make: 'Make',
  menuButton: 'Menu',
  states: 'States',
  number: 'Number',
  moreTools: 'More',
  statesBefore: (n) => `← Earlier states (${n})`,
  statesAfter: (n) => `Later states (${n}) →`,
  needsFind: { label: 'Find records by their words', hint: '↓ goes to the records found; Space marks one needed, or no longer needed.' },
  emptyBinder: 'A list holds the records you and your agents work on together — batches of work, tasks, customers — each moving from one state to the next. Begin with New list, at the left: pick a template, rename it later.',
  hints: {
    title: 'What the record is, in a line: its card shows it.',
    state: 'Where it starts; the list\'s first state if you leave it.',
    owners: 'Who looks after it: names, separated by commas.',
    note: 'Anything worth knowing from the start (optional).',
    parent: 'The number of the record it lies under (12 or #12); empty for none.',
  },
};

const fr: PageWords = {
  hooks: {
    title: 'Crochets web',
    none: 'Aucun crochet web : binder admin hook add URL en crée un.',
    events: 'Événements',
    list: 'Liste',
    everyList: 'toutes les listes',
    deliveries: 'Derniers envois, du plus récent au plus ancien',
    noDelivery: 'Rien ne lui a encore été envoyé.',
    columns: { at: 'Quand', event: 'Événement', record: 'Fiche', outcome: 'État', error: 'Erreur' },
    outcome: { sent: 'envoyé', 'given up': 'abandonné', waiting: 'réessayé bientôt' },
    tries: (n) => (n <= 1 ? `${n} essai` : `${n} essais`),
  },
  notify: { ask: 'Me prévenir dans ce navigateur', on: 'Ce navigateur vous prévient du travail qui vous attend.', denied: 'Ce navigateur a refusé les notifications de Binder : ses réglages du site les permettent à nouveau.' },
  signIn: {
    title: 'Connexion',
    text: 'Cette page est celle d\'une personne. Ouvrez un lien de connexion donné par binder admin login-link (l\'écran et binder serve --http en montrent un au démarrage) : il connecte ce navigateur.',
    working: 'Connexion…',
    failed: 'Ce lien ne vous a pas connecté :',
    with: (provider) => `Se connecter avec ${provider}`,
    signedOut: 'Déconnecté de ce binder.',
    providerToo: (provider) => `Se déconnecter aussi de ${provider}`,
  },
  signedInAs: (name, email) => `Connecté : ${name}${email ? ` <${email}>` : ''}`,
  signOut: 'Se déconnecter',
  language: 'Langue',
  skip: 'Aller aux fiches',
  link: { connecting: 'Connexion au serveur…', live: 'En direct', lost: 'Serveur perdu : reconnexion automatique…' },
  loading: 'Chargement…',
  close: 'Fermer',
  save: 'Enregistrer',
  cancel: 'Annuler',
  confirm: 'Confirmer',
  remove: 'Retirer',
  more: (n) => `Voir ${n} de plus`,
  board: 'Tableau',
  table: 'Table',
  records: (list) => `Fiches de ${list}`,
  dragHint: 'Glissez une carte vers un autre état, ou choisissez-la et tapez < ou > (m pour choisir l\'état).',
  moveTo: 'Déplacer vers',
  openRecord: (id, title) => `#${id} ${title}`,
  agents: 'Agents',
  folders: 'Dossiers des agents',
  tokens: 'Jetons des agents (HTTP)',
  tokenShown: 'Montré cette seule fois : copiez-le maintenant et donnez-le à cet agent seul. Il s\'en sert dans l\'en-tête Authorization: Bearer <jeton>.',
  tokenFor: (name) => `Jeton de ${name}`,
  noTokens: 'Aucun jeton encore.',
  revoke: 'Révoquer',
  revoked: 'révoqué',
  expires: (at) => `expire le ${at}`,
  usedAt: (at) => `dernier usage ${at}`,
  notUsed: 'jamais utilisé',
  knownAgents: 'Accès des agents à cette liste',
  agentName: 'Nom de l\'agent',
  newList: 'Nouvelle liste',
  listTitleOptional: 'Titre (celui du modèle si vide)',
  filters: 'Filtres',
  filteredBy: (said) => `Affichées : ${said}.`,
  clearFilters: 'Voir toutes les fiches',
  accessKeys: '↑ ↓ (ou j k) parcourent les agents ; ← → (ou h l) donnent à celui du curseur moins ou plus d\'accès.',
  editorKeys: '↑ ↓ parcourent les lignes ; e renomme la liste, v tableau ou table, c enfants d\'abord ou non, n ajoute un état, f un champ ; sur un état : Entrée le renomme, g porte ou non, < > plus tôt ou plus tard, D le retire (et un champ).',
  parts: '↑ ↓ (ou j k) parcourent les fiches sous elle, ses notes, ses pièces jointes et les fiches dont elle a besoin : E modifie votre note, T détache, Entrée ouvre une fiche.',
  approve: 'Approuver',
  withdraw: 'Retirer l\'approbation',
  takeAway: 'Retirer la prise',
  opensAt: (ref) => `ouvre ${ref}`,
  noteText: 'Note',
  typed: 'Titre de la liste',
  deleteList: 'Supprimer la liste',
  archiveList: 'Archiver la liste',
  restoreList: 'Restaurer la liste',
  keysTitle: 'Touches',
  people: {
    title: 'Personnes',
    role: { admin: 'administrateur', member: 'membre' },
    you: '(vous)',
    youAre: (role) => (role === 'admin' ? 'Vous administrez ce binder.' : 'Vous êtes membre de ce binder.'),
    makeAdmin: 'Nommer administrateur',
    makeMember: 'Rendre membre',
    remove: 'Retirer',
    confirmRemove: (name) => `Retirer ${name} de ce binder ? Cette personne sera refusée désormais ; ce qu'elle a fait reste dans l'historique.`,
    confirmRole: (name, role) => `${role === 'admin' ? 'Nommer' : 'Rendre'} ${name} ${role === 'admin' ? 'administrateur' : 'membre'} de ce binder ?`,
    roleSet: (name, role) => `${name} est ${role === 'admin' ? 'administrateur' : 'membre'} de ce binder désormais.`,
    removed: (name) => `${name} a été retiré : ce qu'il a fait reste dans l'historique.`,
    membersSee: 'Seul un administrateur change un rôle ou retire une personne.',
    keys: '↑ ↓ choisir une personne, R la nomme administrateur ou membre, D la retire (après confirmation).',
  },
  adminOnly: 'Seul un administrateur de ce binder change les listes, l\'accès des agents, les dossiers et les jetons : demandez-le à un administrateur.',
  menu: 'Listes et vues',
  failed: (status) => `Le serveur a répondu ${status}.`,
  add: 'Ajouter',
  make: 'Créer',
  menuButton: 'Menu',
  states: 'États',
  number: 'Numéro',
  moreTools: 'Plus',
  statesBefore: (n) => `← États précédents (${n})`,
  statesAfter: (n) => `États suivants (${n}) →`,
  needsFind: { label: 'Trouver des fiches par leurs mots', hint: '↓ va aux fiches trouvées ; Espace en marque une comme nécessaire, ou plus nécessaire.' },
  emptyBinder: 'Une liste tient les fiches sur lesquelles vous et vos agents travaillez ensemble — lots de travail, tâches, clients —, chacune allant d\'un état au suivant. Commencez par Nouvelle liste, à gauche : choisissez un modèle, renommez-le ensuite.',
  hints: {
    title: 'Ce qu\'est la fiche, en une ligne : sa carte la montre.',
    state: 'Où elle commence ; le premier état de la liste si vous le laissez.',
    owners: 'Qui s\'en occupe : des noms, séparés par des virgules.',
    note: 'Ce qu\'il faut savoir dès le début (facultatif).',
    parent: 'Le numéro de la fiche sous laquelle elle est (12 ou #12) ; vide pour aucune.',
  },
};

export const pageWordsFor = (lang: Lang): PageWords => (lang === 'fr' ? fr : en);

/** A control's words in sentence case: the screen's tables write its key list in small letters. */
export const sentence = (text: string): string => text.charAt(0).toLocaleUpperCase() + text.slice(1);

const forPageCache = new Map<Words, Words>();

/**
 * The screen's words as the page's controls say them: every command in sentence case, and the
 * table's headers written out (a terminal's columns are narrow; a page's are not).
 */
export function forPage(words: Words): Words {
  const made = forPageCache.get(words);
  if (made) return made;
  const commands = Object.fromEntries(Object.entries(words.commands).map(([k, v]) => [k, sentence(v)])) as Words['commands'];
  const columns = { ...words.view.columns, owners: words.record.owners, attached: words.record.attached, approved: sentence(words.view.approved) };
  const page: Words = { ...words, commands, view: { ...words.view, columns } };
  forPageCache.set(words, page);
  return page;
}
