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
  personOnly: (doing, verb) => `Seule une personne peut ${doing} : elle le fait sur son écran (binder tui) ou avec \`binder admin ${verb}\`.`,
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
  needsTooMany: (most) => `Une fiche a besoin d'au plus ${most} autres : faites de ces étapes les fiches d'une liste à part.`,

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
