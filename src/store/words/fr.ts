/**
 * Les refus du store en français, pour une personne dont l'écran parle français (les agents
 * lisent toujours l'anglais, en.ts) ; les étapes suivantes sont des étapes, jamais des mots.
 * Une entrée manquante est une erreur de type (voir `RefusalWords`).
 */
import { sentence, step, placeholder } from '../sentence.js';
import type { RefusalWords } from './en.js';

export const fr: RefusalWords = {
  /* ---- accès ---- */
  noList: (ref) => sentence`Il n'y a aucune liste « ${ref} » que vous puissiez voir : ${step('lists')} montre les vôtres.`,
  noRecord: (n) => `Il n'y a aucune fiche #${n} que vous puissiez voir.`,
  readOnly: (title) => `Vous pouvez seulement lire « ${title} » : demandez à une personne de vous y donner l'accès en écriture.`,
  personOnly: (doing, verb) => sentence`Seule une personne peut ${doing} : elle le fait sur son écran (binder tui) ou avec \`binder admin ${verb}\`.`,
  notARecordNumber: (shown) => `« ${shown} » n'est pas un numéro de fiche : donnez-le sous la forme 12 ou #12.`,
  archivedRecord: (id) => sentence`La fiche #${id} est archivée : restaurez-la d'abord (${step('restore', { id })}).`,

  /* ---- prises ---- */
  claimTooShort: () => 'Une prise dure au moins une seconde : donnez --for comme 30m, 2h ou 45s.',
  claimTooLong: () => 'Une prise dure au plus un jour (--for 1d) : reprenez-la plus tard pour la garder plus longtemps.',
  belongsTo: (id, named) =>
    sentence`La fiche #${id} appartient à ${named} : prenez-en une autre (ce qui est libre : ${step('ready')}) ou demandez-leur d'y renoncer.`,
  archivedNothingReady: (title) => `« ${title} » est archivée : rien n'y est prêt.`,
  nothingReady: (title, list) =>
    sentence`Rien dans ${title} n'est prêt pour vous maintenant. ${step('wait', { on: list })} répond dès que quelque chose y change.`,
  lapsesIn: (minutes) =>
    (minutes === 0 ? 'dans moins d\'une minute' : minutes < 120 ? `dans ${minutes} min` : `dans ${Math.round(minutes / 60)} h`),
  takenNotYou: (id, holder) => `La fiche #${id} est prise par ${holder}, pas par vous : seul ${holder} ou une personne peut la rendre.`,
  heldBy: (id, holder, until, next) => sentence`La fiche #${id} est prise par ${holder} jusqu'au ${until} : ${next}`,
  heldByFree: (id) =>
    sentence`ce qui est libre : ${step('ready')} ; ${step('wait', { on: String(id) })} répond dès que celle-ci change, par exemple quand elle est rendue.`,
  heldByChange: (id, holder) =>
    sentence`seul ${holder} ou une personne peut la changer d'ici là. Une note lui parvient (${step('note', { id, text: placeholder('TEXTE') })}) ; ${step('wait', { on: String(id) })} répond dès qu'elle change, par exemple quand elle est rendue.`,

  /* ---- fiches ---- */
  archivedList: (title, list) => `« ${title} » est archivée : restaurez d'abord la liste (binder admin archive-list ${list} --restore).`,
  cannotStartPastGate: (state, gate, first) =>
    `Une fiche ne peut pas commencer dans « ${state} » : seule une personne peut lui faire passer « ${gate} ». Ajoutez-la dans « ${first} » et demandez à une personne de l'approuver.`,
  changedSinceSeen: (id, now) =>
    `La fiche #${id} a changé depuis que vous l'avez regardée : son titre ou ses champs ne sont plus ceux que vous avez vus. Regardez-la de nouveau, puis approuvez-la : binder admin get ${id} la montre, et binder admin approve ${id} --seen ${now} approuve ce qu'elle dit maintenant.`,
  movedSinceSeen: (id, was, now) =>
    `La fiche #${id} a bougé depuis que vous l'avez regardée : elle était dans ${was}, elle est dans ${now} maintenant. Rien n'a bougé ; regardez-la de nouveau.`,
  notApproved: (id, gate) =>
    sentence`La fiche #${id} n'est pas approuvée : seule une personne peut lui faire passer « ${gate} ». Demandez à une personne de l'approuver ; ${step('wait', { on: String(id) })} répond dès qu'elle l'a fait.`,
  archivedAlready: (id) => sentence`La fiche #${id} est déjà archivée : ${step('restore', { id })} la fait revenir.`,
  notArchived: (id) => `La fiche #${id} n'est pas archivée : il n'y a rien à restaurer.`,

  /* ---- notes et pièces jointes ---- */
  noNote: (id, note) => sentence`La fiche #${id} n'a pas de note ${note} : ${step('get', { id })} montre ses notes et leurs numéros.`,
  notYourNote: (author, note) => `Seul son auteur, ${author}, peut réécrire la note ${note} : ajoutez plutôt une nouvelle note.`,
  noAttachKind: (shown, kinds) => `« ${shown} » n'est pas une sorte de pièce jointe : choisissez parmi ${kinds}.`,
  noRef: () => 'Une pièce jointe a besoin d\'une référence : un chemin, une URL, dépôt:branche, un identifiant de message ou un numéro de fiche.',
  refTooLong: (most) => `La référence d'une pièce jointe compte au plus ${most} caractères.`,
  nothingAttached: (id, shown) =>
    sentence`Rien de ce qui est joint à la fiche #${id} ne correspond à « ${shown} » : ${step('get', { id })} énumère ce qui y est joint.`,

  /* ---- besoins ---- */
  needsCircle: (record, other, circle, away) =>
    sentence`La fiche #${record} ne peut pas avoir besoin de la fiche #${other} : cela fermerait un cercle (${circle}), et aucune ne pourrait jamais commencer. ${
      away ? sentence`Retirez d'abord l'un de ces besoins : ${away}.` : 'Demandez à une personne de retirer d\'abord l\'un de ces besoins.'}`,
  needsWhich: (id) =>
    sentence`Dites de quelles fiches la fiche #${id} a besoin : ${step('needs', { id, others: '12 14' })} ; pour en retirer une : ${step('needs', { id, others: '12', remove: true })}.`,
  needsItself: (id) => `La fiche #${id} ne peut pas avoir besoin d'elle-même.`,
  recordUnseen: () => 'une fiche que vous ne pouvez pas voir',
  needsWord: () => 'a besoin de',
  needsTooMany: (most) => `Une fiche a besoin d'au plus ${most} autres : faites de ces étapes les fiches d'une liste à part.`,

  /* ---- ce qu'une fiche contient ---- */
  notALabel: (field, shown, most) => `Le champ ${field} contient des étiquettes : « ${shown} » n'en est pas une (un mot court de lettres, chiffres, - _ ou ., au plus ${most} caractères).`,
  notOwnLabel: (field, labels, shown) => `Le champ ${field} prend les étiquettes ${labels} : « ${shown} » n'en fait pas partie.`,
  labelsTooMany: (field, most) => `Le champ ${field} contient au plus ${most} étiquettes.`,
  labelsTwice: (field) => `Les étiquettes ont été données deux fois, comme étiquettes et comme champ ${field} : donnez-les d'une seule façon, pas des deux.`,
  noLabelsField: (title) => `« ${title} » n'a aucun champ d'étiquettes : donnez des étiquettes là où la liste en a un, ou demandez à une personne d'en ajouter un à « ${title} ».`,
  noteEmpty: () => 'Une note ne peut pas être vide : écrivez ce qui s\'est passé.',
  noteTooLong: (most) => `Une note compte au plus ${most} caractères : découpez-la en plusieurs notes.`,
  notAState: (given, title, states) => `« ${given} » n'est pas un état de « ${title} » : ses états sont ${states}.`,
  notAField: (given, title, fields) => `« ${given} » n'est pas un champ de « ${title} » : ses champs sont ${fields}.`,
  noFields: (given, title) => `« ${given} » n'est pas un champ de « ${title} » : elle n'a aucun champ.`,
  ownerTooLong: (most) => `Un responsable compte au plus ${most} caractères : donnez un identifiant ou un nom court.`,
  ownersTooMany: (most) => `Une fiche a au plus ${most} responsables : gardez ceux qui s'en occupent.`,
  valueTooLong: (most) => `La valeur d'un champ compte au plus ${most} caractères : mettez un texte plus long dans une note.`,
  notANumber: (field, shown) => `Le champ ${field} est un nombre : « ${shown} » n'en est pas un (écrivez-le comme 1200 ou 3.5).`,
  notADate: (field) => `Le champ ${field} est une date : écrivez-la sous la forme AAAA-MM-JJ, comme 2026-11-04.`,
  notAChoice: (field, choices, shown) => `Le champ ${field} prend l'une de ces valeurs : ${choices} ; « ${shown} » n'en fait pas partie.`,
  notAWebAddress: (field) => `Le champ ${field} est une adresse web : écrivez-la sous la forme http://… ou https://….`,
  notADueDate: (shown) => `« ${shown} » n'est pas une échéance : écrivez 2026-11-04 ou « 2026-11-04 09:00 », ou none pour l'effacer.`,
  titleEmpty: (what) => sentence`${what} ne peut pas être vide : écrivez quelques mots.`,
  titleTooLong: (what, most) =>
    sentence`${what} compte au plus ${most} caractères : raccourcissez-le et mettez le reste dans une note.`,
  titleOfARecord: () => 'Un titre',
  titleOfAList: () => 'Le titre d\'une liste',
  titleOfAnAttachment: () => 'Le titre d\'une pièce jointe',
  nameEmpty: (what) => sentence`${what} doit contenir des lettres ou des chiffres.`,
  nameTooLong: (what, most) => sentence`${what} compte au plus ${most} caractères.`,
  nameOfAState: () => 'Le nom d\'un état',
  nameOfAField: () => 'Le nom d\'un champ',
  nameOfAChoice: () => 'Le nom d\'un choix',
  nameOfAPerson: () => 'Le nom d\'une personne',
  nameOfAnAgent: () => 'Le nom d\'un agent',

  /* ---- états et champs des listes ---- */
  listNeedsState: () => 'Une liste a besoin d\'au moins un état.',
  stateNamedTwice: (name) => `Deux états s'appellent « ${name} » : donnez à chaque état son propre nom.`,
  noStateToKeep: (id) => `Il n'y a aucun état « ${id} » à garder : omettez l'identifiant pour un nouvel état.`,
  stateGivenTwice: (name) => `L'état « ${name} » est donné deux fois : donnez-le une seule fois.`,
  firstStateGate: (state) => `« ${state} » ne peut pas être une porte : une porte a besoin d'un état avant elle, où les fiches attendent une personne.`,
  fieldNamedTwice: (name) => `Deux champs s'appellent « ${name} » : donnez à chaque champ son propre nom.`,
  notAFieldType: (shown, types) => `« ${shown} » n'est pas un type de champ : choisissez parmi ${types}.`,
  noFieldToKeep: (id) => `Il n'y a aucun champ « ${id} » à garder : omettez l'identifiant pour un nouveau champ.`,
  fieldGivenTwice: (name) => `Le champ « ${name} » est donné deux fois : donnez-le une seule fois.`,
  choicesNeeded: (name) => `Le champ à choix « ${name} » a besoin de ses choix, comme Haute|Normale|Basse.`,
  noTemplate: (shown, ids) => `Il n'y a aucun modèle « ${shown} » : choisissez parmi ${ids}.`,
  titleTaken: (list, title) => `La liste ${list} s'intitule déjà « ${title} » : donnez un autre titre à celle-ci.`,
  notAView: () => 'Une liste s\'ouvre en tableau (board) ou en table (table).',
  stateStillHolds: (state, n) => `« ${state} » contient encore ${n} fiche${n === 1 ? '' : 's'} : déplacez-${n === 1 ? 'la' : 'les'} d'abord vers un autre état.`,
  grantToPerson: () => 'Les personnes voient et modifient toutes les listes : l\'accès ne se donne qu\'aux agents.',
  notAnAgent: (shown) => `« ${shown} » n'est pas un agent : donnez son nom ou son identifiant (agent:nom).`,
  notAnAccess: () => 'L\'accès est read, write, ou none pour le retirer.',
  oneGate: (states) =>
    `Une liste a une seule porte, et ${states.map((s) => `« ${s} »`).join(' et ')} en feraient ${states.length} : une approbation fait passer la porte à une fiche, et tous les états après elle. `
      + 'Gardez-en une (--ungate pour les autres).',

  /* ---- requêtes ---- */
  queryAt: (column, why, caret) => sentence`La requête ne se lit pas à la colonne ${column} : ${why}${caret}`,
  queryQuotePhrase: () => 'ce guillemet n\'est jamais fermé ; terminez la phrase par un autre ".',
  queryQuoteValue: () => 'ce guillemet n\'est jamais fermé ; terminez la valeur par un autre ".',
  queryNoValue: (term) => `« ${term} » demande une valeur après.`,
  queryOnlyDue: (op, key) => `seule due prend ${op} (due${op}2026-12-10) ; écrivez ${key}:valeur.`,
  queryApproved: () => 'approved vaut yes ou no.',
  queryIs: () => 'is prend archived (is:archived).',
  queryField: () => 'field s\'écrit field:Nom=Valeur.',
  queryDue: () => 'due prend une date écrite 2026-12-10, ou due:overdue, due:today.',
  queryNoKey: (key, keys) => `il n'y a pas de clé « ${key} » ; les clés sont ${keys}.`,
  queryEmptyPhrase: () => 'une phrase vide ne trouve rien ; écrivez des mots entre les guillemets.',
  queryTooLong: (most) => `une requête fait au plus ${most} caractères.`,
  queryOrBefore: () => 'OR se place entre deux termes ; mettez un terme avant.',
  queryTooManyTerms: (most) => `une requête a au plus ${most} termes.`,
  queryOrAfter: () => 'OR se place entre deux termes ; mettez un terme après.',

  /* ---- personnes, connexion, jetons, organisations ---- */
  orgName: (most) => `Le nom d'une organisation compte de 1 à ${most} caractères sur une ligne, sans caractère de contrôle.`,
  removedPerson: () => 'Une personne qui l\'administre vous a retiré de ce binder : demandez à un de ses administrateurs de vous y laisser revenir (binder admin set-role).',
  notSignedIn: () => 'Vous n\'êtes pas connecté à ce binder : reconnectez-vous.',
  noPerson: (shown) => `Personne de ce binder ne s'appelle « ${shown} » : binder admin people les énumère.`,
  notARole: (shown) => `Un rôle est admin ou member, pas « ${shown} ».`,
  removedAlready: (name) => `${name} a déjà été retiré.`,
  linkUsed: () => 'Ce lien de connexion a déjà servi, a expiré (un lien dure 10 minutes) ou n\'en est pas un : demandez-en un autre avec binder admin login-link.',
  noSession: (shown) => `Aucune session ouverte n'a l'identifiant « ${shown} » ni n'est celle de cette personne : binder admin sessions les liste.`,
  noLoginLinks: (host) => `Ce binder connecte les personnes par ${host} : il n'y a pas de lien de connexion. Ouvrez la page et choisissez « Se connecter avec ${host} ».`,
  noToken: (shown) => `Aucun jeton valide ne s'appelle « ${shown} » ni ne commence ainsi : binder admin token list les montre.`,
  serverOnly: (doing) =>
    `Seule la personne qui fait tourner ce serveur peut ${doing}, depuis sa machine : binder admin --org ORGANISATION side add DOSSIER NOM. Un dossier du serveur peut être celui de n'importe quelle organisation.`,
  adminOnly: (doing) => `Seul un administrateur de ce binder peut ${doing} : demandez-le à l'un d'eux.`,
  peopleSameName: (count, shown, byEmail, which) =>
    `${count} personnes s'appellent « ${shown} » : désignez-en une par ${byEmail ? 'son e-mail' : 'son identifiant'} (${which}).`,
  lastAdmin: (name, change) =>
    `${name} est le dernier administrateur de ce binder et ne peut pas être ${change === 'member' ? 'rétrogradé' : 'retiré'} : nommez d'abord quelqu'un d'autre administrateur (binder admin set-role PERSONNE admin).`,

  /* ---- dossiers des agents ---- */
  folderNotAbsolute: (shown) => `Le dossier d'un agent se donne par un chemin absolu : « ${shown} » n'en est pas un.`,
  folderNameTaken: (clean, dir) => `Le nom « ${clean} » est déjà pris par le dossier ${dir} : choisissez-en un autre.`,
  folderReadAlready: (folder, named) => `Le dossier ${folder} est déjà lu pour ${named} : retirez-le d'abord pour le renommer.`,
  folderTwin: (folder, dir, named) => `Le dossier ${folder} est le même répertoire que ${dir}, lu pour ${named} : un dossier n'est lu que pour un seul agent.`,
  noFolder: (given) => `Il n'y a aucun dossier d'agent nommé « ${given} » : binder admin sides les énumère.`,

  /* ---- crochets web ---- */
  hookUrlPlain: (protocol, host) => `Un crochet est averti à une URL https://, ou http:// sur cette machine (localhost, 127.0.0.1, [::1]) : ${protocol}//${host} ferait passer les fiches du binder en clair.`,
  noHook: (shown) => `Aucun crochet « ${shown} » : binder admin hook list les montre.`,
  hookUrlWhole: (most) => `Donnez l'URL du crochet entière, au plus ${most} caractères, sans espace : https://example.com/binder-hook.`,
  notAUrl: (shown) => `« ${shown} » n'est pas une URL : donnez-en une comme https://example.com/binder-hook.`,
  hookUrlUser: () => 'L\'URL d\'un crochet ne porte ni utilisateur ni mot de passe (hook list la montre) : la signature dit que l\'envoi vient du binder.',
  hookEventsUnknown: (events, unknown) =>
    `Un crochet est averti de ${events} : pas de ${unknown.map((w) => `« ${w} »`).join(', ')}.`,

  /* ---- exporter et importer un binder ---- */
  importIntoBinderExport: () => 'Un export de Binder apporte ses propres listes : importez-le sans --into.',
  importKeyTwice: (key, firstLine) => `« ${key} » est donnée deux fois (d'abord ligne ${firstLine}).`,
  importListMissing: (list) => `sa liste « ${list} » n'est pas dans le fichier.`,
  importPastGate: (state, gate, title) => `« ${state} » est au-delà de la porte « ${gate} » de ${title}, et une fiche importée n'est pas approuvée : importez avec --approved (vous les approuvez toutes), ou dans une liste sans porte.`,
  importNoAttachKind: (shown, kinds) => `« ${shown} » n'est pas une sorte de pièce jointe : ${kinds}.`,
  importRefLength: (most) => `La référence d'une pièce jointe compte de 1 à ${most} caractères.`,
  importNeedsCircle: (keys) =>
    `ses besoins ferment un cercle (${keys.map((k) => `« ${k} »`).join(' a besoin de ')}) : aucune ne pourrait jamais commencer.`,
  atLine: (line, said) => `Ligne ${line} : ${said}`,
  importNotWho: (shown) => `« ${shown} » n'est ni une personne ni un agent (person:NOM ou agent:NOM).`,
  importNotTime: (shown) => `« ${shown} » n'est pas une date et heure.`,
  importStateNoId: (name) => `L'état « ${name} » n'a pas d'identifiant propre.`,
  importFirstGate: (state) => `« ${state} » ne peut pas être une porte : c'est le premier état.`,
  importFieldNotUnderstood: (name) => `Le champ « ${name} » n'est pas compris.`,
  importNoChoices: (name) => `Le champ à choix « ${name} » n'a aucun choix.`,
  importListTwice: (list) => `La liste « ${list} » est donnée deux fois.`,
  importNotAccess: (shown) => `« ${shown} » n'est pas l'accès d'un agent.`,
  importNoInto: (format) =>
    `Dites dans quelle liste vont les ${format === 'csv' ? 'lignes' : 'fiches'} : --into LISTE (binder admin create-list en crée une).`,
  importIntoArchived: (title, list) =>
    `« ${title} » est archivée : restaurez-la d'abord (binder admin archive-list ${list} --restore).`,

  /* ---- le magasin lui-même ---- */
  storeNotFolder: (dir) => `Binder ne peut pas garder son magasin dans ${dir} : ce n'est pas un dossier.`,
  storeFolderNotAllowed: (dir) => `Binder ne peut pas créer le dossier du magasin ${dir} : il n'a pas le droit d'y écrire.`,
  storeFolderCannotMake: (dir, why) => `Binder ne peut pas créer le dossier du magasin ${dir} : ${why}.`,
  storeFolderNotWritable: (dir) => `Binder ne peut pas garder son magasin dans ${dir} : on ne peut pas écrire dans ce dossier.`,
  storeFileCannotMake: (path, why) => `Binder ne peut pas créer le fichier de son magasin ${path} : ${why}.`,
  storeCannotOpen: (path, why) => sentence`Binder ne peut pas ouvrir son magasin ${path} : ${why}.`,
  openNotRegularFile: () => 'ce n\'est pas un fichier ordinaire',
  openFileNotWritable: () => 'on ne peut pas écrire dans ce fichier',
  openNewer: () => 'il a été fait par un Binder plus récent ; utilisez cette version-là',
  openNotADatabase: () => 'ce fichier n\'est pas une base de données',
  openDamaged: () => 'la base de données est abîmée',
  openNotWritable: () => 'on ne peut pas y écrire',
  openBusy: () => 'un autre processus le tient verrouillé ; réessayez',
  openNewerSchema: (at, known) => `sa base a été faite par un Binder plus récent (schéma ${at}, celui-ci connaît ${known}) ; utilisez cette version-là`,
  openUnreachable: (why) => `sa base est injoignable (${why})`,

  /* ---- accès, encore ---- */
  seeArchivedLists: () => 'voir les listes archivées',
  /* ---- fiches sous des fiches ---- */
  parentItself: (id) => `La fiche #${id} ne peut pas être sa propre fiche parente.`,
  parentLoop: (id, parent, loop) =>
    `La fiche #${id} ne peut pas aller sous la fiche #${parent} : ${loop.replaceAll(' under ', ' sous ')}, elle serait donc sous elle-même. Sortez d'abord l'une de sous l'autre (edit --parent none).`,
  parentTooDeep: (most) => `Une fiche est au plus à ${most} niveaux sous d'autres : mettez-la sous une fiche plus haute.`,
  childrenWhat: (id, children) =>
    `La fiche #${id} a des fiches sous elle (${children}) : dites ce qu'elles deviennent, --children orphan (elles restent, sous aucune) ou --children delete (supprimées avec elle).`,
  childrenNotDone: (id, open) =>
    `La fiche #${id} ne peut pas être finie tant que des fiches sous elle ne le sont pas : ${open}. Finissez-les, ou sortez-les de sous elle (edit --parent none).`,
};
