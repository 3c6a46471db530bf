/**
 * The store's refusals in English: what an agent or a person reads when a rule says no, and what
 * to do instead; next steps as steps (`step('wait', …)`), never as words. Agents always read
 * these. A new refusal goes here and in fr.ts (the type says so).
 */
import { sentence, step, placeholder, type Sentence, type Step } from '../sentence.js';

export const en = {
  /* ---- access ---- */
  noList: (ref: string): Sentence => sentence`There is no list "${ref}" you can see: ${step('lists')} shows yours.`,
  noRecord: (n: string): string => `There is no record #${n} you can see.`,
  readOnly: (title: string): string => `You may only read "${title}": ask a person to give you write access to it.`,
  personOnly: (doing: string, verb: string): string => `Only a person can ${doing}: a person does it on their screen or with \`binder admin ${verb}\`.`,
  notARecordNumber: (shown: string): string => `"${shown}" is not a record number: give it as 12 or #12.`,
  archivedRecord: (id: number): Sentence => sentence`#${id} is archived: restore it first (${step('restore', { id })}).`,

  /* ---- claims ---- */
  claimTooShort: (): string => 'A claim lasts at least a second: give --for like 30m, 2h or 45s.',
  claimTooLong: (): string => 'A claim lasts at most a day (--for 1d): take it again later to keep it longer.',
  belongsTo: (id: number, named: string): Sentence =>
    sentence`#${id} belongs to ${named}: take another (what is free: ${step('ready')}), or ask them to give it up.`,
  archivedNothingReady: (title: string): string => `"${title}" is archived: nothing in it is ready.`,
  nothingReady: (title: string, list: string): Sentence =>
    sentence`Nothing in ${title} is ready for you now. ${step('wait', { on: list })} returns when something changes there.`,
  takenNotYou: (id: number, holder: string): string => `#${id} is taken by ${holder}, not you: only ${holder} or a person can give it back.`,
  heldBy: (id: number, holder: string, until: string, next: string | Sentence): Sentence => sentence`#${id} is taken by ${holder} until ${until}: ${next}`,
  heldByFree: (id: number): Sentence =>
    sentence`what is free: ${step('ready')}; ${step('wait', { on: String(id) })} returns when this one changes, as when it is given back.`,
  heldByChange: (id: number, holder: string): Sentence =>
    sentence`only ${holder} or a person may change it meanwhile. A note reaches them (${step('note', { id, text: placeholder('TEXT') })}); ${step('wait', { on: String(id) })} returns when it changes, as when it is given back.`,

  /* ---- records ---- */
  archivedList: (title: string, list: string): string => `"${title}" is archived: restore the list first (binder admin archive-list ${list} --restore).`,
  cannotStartPastGate: (state: string, gate: string, first: string): string =>
    `A record cannot start in "${state}": only a person can let it past "${gate}". Add it to "${first}" and ask a person to approve it.`,
  changedSinceSeen: (id: number, now: string): string =>
    `#${id} changed since you looked: its title or fields are not what you saw. Look at it again, then approve it: binder admin get ${id} shows it, and binder admin approve ${id} --seen ${now} approves what it says now.`,
  movedSinceSeen: (id: number, was: string, now: string): string =>
    `#${id} moved since you looked: it was in ${was}, it is in ${now} now. Nothing was moved; look at it again.`,
  notApproved: (id: number, gate: string): Sentence =>
    sentence`#${id} is not approved: only a person can let it past "${gate}". Ask a person to approve it; ${step('wait', { on: String(id) })} returns when one does.`,
  archivedAlready: (id: number): Sentence => sentence`#${id} is archived already: ${step('restore', { id })} brings it back.`,
  notArchived: (id: number): string => `#${id} is not archived: there is nothing to restore.`,

  /* ---- notes and attachments ---- */
  noNote: (id: number, note: string): Sentence => sentence`#${id} has no note ${note}: ${step('get', { id })} shows its notes and their numbers.`,
  notYourNote: (author: string, note: number): string => `Only its author, ${author}, can rewrite note ${note}: add a new note instead.`,
  noAttachKind: (shown: string, kinds: string): string => `"${shown}" is not a kind of attachment: use one of ${kinds}.`,
  noRef: (): string => 'An attachment needs a ref: a path, a URL, repo:branch, a message id or a record number.',
  refTooLong: (most: number): string => `An attachment's ref is at most ${most} characters.`,
  nothingAttached: (id: number, shown: string): Sentence => sentence`Nothing attached to #${id} is "${shown}": ${step('get', { id })} lists what is attached.`,

  /* ---- needs ---- */
  needsCircle: (record: number, other: number, circle: string, away: Step | undefined): Sentence =>
    sentence`#${record} cannot need #${other}: that would close a circle (${circle}), and none of them could ever start. ${
      away ? sentence`Take one of those needs away first: ${away}.` : 'Ask a person to take one of those needs away first.'}`,
  needsWhich: (id: number): Sentence =>
    sentence`Say which records #${id} needs: ${step('needs', { id, others: '12 14' })}; to take one away: ${step('needs', { id, others: '12', remove: true })}.`,
  needsItself: (id: number): string => `#${id} cannot need itself.`,
  needsTooMany: (most: number): string => `A record needs at most ${most} others: make the steps records of a list of their own.`,

  /* ---- records under records ---- */
  parentItself: (id: number): string => `#${id} cannot be its own parent.`,
  parentLoop: (id: number, parent: number, loop: string): string =>
    `#${id} cannot go under #${parent}: ${loop}, so it would lie under itself. Take one of them from under the other first (edit --parent none).`,
  parentTooDeep: (most: number): string => `A record lies at most ${most} deep under others: put it under one higher up.`,
  childrenWhat: (id: number, children: string): string =>
    `#${id} has records under it (${children}): say what becomes of them, --children orphan (they stay, under nothing) or --children delete (deleted with it).`,
  childrenNotDone: (id: number, open: string): string =>
    `#${id} cannot be done while records under it are not: ${open}. Finish them, or take them from under it (edit --parent none).`,
};

/** Every refusal's words, in each language the same (a missing one is a type error). */
export type RefusalWords = { readonly [K in keyof typeof en]: (...args: Parameters<(typeof en)[K]>) => string | Sentence };
