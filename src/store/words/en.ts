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
  personOnly: (doing: string | Sentence, verb: string): Sentence => sentence`Only a person can ${doing}: a person does it on their screen or with \`binder admin ${verb}\`.`,
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
  lapsesIn: (minutes: number): string =>
    (minutes === 0 ? 'in less than a minute' : minutes < 120 ? `in ${minutes} min` : `in ${Math.round(minutes / 60)} h`),
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
  needsCircle: (record: number, other: number, circle: string | Sentence, away: Step | undefined): Sentence =>
    sentence`#${record} cannot need #${other}: that would close a circle (${circle}), and none of them could ever start. ${
      away ? sentence`Take one of those needs away first: ${away}.` : 'Ask a person to take one of those needs away first.'}`,
  needsWhich: (id: number): Sentence =>
    sentence`Say which records #${id} needs: ${step('needs', { id, others: '12 14' })}; to take one away: ${step('needs', { id, others: '12', remove: true })}.`,
  needsItself: (id: number): string => `#${id} cannot need itself.`,
  recordUnseen: (): string => 'a record you cannot see',
  needsWord: (): string => 'needs',
  needsTooMany: (most: number): string => `A record needs at most ${most} others: make the steps records of a list of their own.`,

  /* ---- what a record holds ---- */
  notALabel: (field: string, shown: string, most: number): string => `The field ${field} holds labels: "${shown}" is not one (a short word of letters, digits, - _ or ., at most ${most} characters).`,
  notOwnLabel: (field: string, labels: string, shown: string): string => `The field ${field} takes the labels ${labels}: "${shown}" is not one of them.`,
  labelsTooMany: (field: string, most: number): string => `The field ${field} holds at most ${most} labels.`,
  labelsTwice: (field: string): string => `The labels were given twice, as labels and as the field ${field}: give them one way, not both.`,
  noLabelsField: (title: string): string => `"${title}" has no labels field: give labels where the list has one, or ask a person to add one to "${title}".`,
  noteEmpty: (): string => 'A note cannot be empty: write what happened.',
  noteTooLong: (most: number): string => `A note is at most ${most} characters: split it into several notes.`,
  notAState: (given: string, title: string, states: string): string => `"${given}" is not a state of "${title}": its states are ${states}.`,
  notAField: (given: string, title: string, fields: string): string => `"${given}" is not a field of "${title}": its fields are ${fields}.`,
  noFields: (given: string, title: string): string => `"${given}" is not a field of "${title}": it has no fields.`,
  ownerTooLong: (most: number): string => `An owner is at most ${most} characters: give an id or a short name.`,
  ownersTooMany: (most: number): string => `A record has at most ${most} owners: keep the ones who act on it.`,
  valueTooLong: (most: number): string => `A field's value is at most ${most} characters: put longer text in a note.`,
  notANumber: (field: string, shown: string): string => `The field ${field} is a number: "${shown}" is not one (write it like 1200 or 3.5).`,
  notADate: (field: string): string => `The field ${field} is a date: write it as YYYY-MM-DD, like 2026-11-04.`,
  notAChoice: (field: string, choices: string, shown: string): string => `The field ${field} is one of ${choices}: "${shown}" is not.`,
  notAWebAddress: (field: string): string => `The field ${field} is a web address: write it as http://… or https://….`,
  notADueDate: (shown: string): string => `"${shown}" is not a due date: write 2026-11-04 or "2026-11-04 09:00", or none to clear it.`,
  titleEmpty: (what: string | Sentence): Sentence => sentence`${what} cannot be empty: give a few words.`,
  titleTooLong: (what: string | Sentence, most: number): Sentence =>
    sentence`${what} is at most ${most} characters: shorten it, and put the rest in a note.`,
  titleOfARecord: (): string => 'A title',
  titleOfAList: (): string => 'A list\'s title',
  titleOfAnAttachment: (): string => 'An attachment\'s title',
  nameEmpty: (what: string | Sentence): Sentence => sentence`${what} needs a name with letters or digits.`,
  nameTooLong: (what: string | Sentence, most: number): Sentence => sentence`${what}'s name is at most ${most} characters.`,
  nameOfAState: (): string => 'A state',
  nameOfAField: (): string => 'A field',
  nameOfAChoice: (): string => 'A choice',
  nameOfAPerson: (): string => 'A person',
  nameOfAnAgent: (): string => 'An agent',

  /* ---- lists' states and fields ---- */
  listNeedsState: (): string => 'A list needs at least one state.',
  stateNamedTwice: (name: string): string => `Two states are named "${name}": give each state its own name.`,
  noStateToKeep: (id: string): string => `There is no state "${id}" to keep: leave out the id for a new state.`,
  stateGivenTwice: (name: string): string => `The state "${name}" is given twice: give it once.`,
  firstStateGate: (state: string): string => `"${state}" cannot be a gate: a gate needs a state before it, where records wait for a person.`,
  fieldNamedTwice: (name: string): string => `Two fields are named "${name}": give each field its own name.`,
  notAFieldType: (shown: string, types: string): string => `"${shown}" is not a field type: use one of ${types}.`,
  noFieldToKeep: (id: string): string => `There is no field "${id}" to keep: leave out the id for a new field.`,
  fieldGivenTwice: (name: string): string => `The field "${name}" is given twice: give it once.`,
  choicesNeeded: (name: string): string => `The choice field "${name}" needs its choices, like High|Normal|Low.`,
  noTemplate: (shown: string, ids: string): string => `There is no template "${shown}": use one of ${ids}.`,
  titleTaken: (list: string, title: string): string => `The list ${list} is titled "${title}" already: give this one another title.`,
  notAView: (): string => 'A list opens as a board or a table.',
  stateStillHolds: (state: string, n: number): string => `"${state}" still holds ${n} record${n === 1 ? '' : 's'}: move ${n === 1 ? 'it' : 'them'} to another state first.`,
  grantToPerson: (): string => 'People see and change every list: access is granted to agents only.',
  notAnAgent: (shown: string): string => `"${shown}" is not an agent: give its name or its id (agent:name).`,
  notAnAccess: (): string => 'Access is read, write, or none to take it away.',
  oneGate: (states: readonly string[]): string =>
    `A list has one gate, and ${states.map((s) => `"${s}"`).join(' and ')} would be ${states.length}: an approval lets a record past the gate and through every state after it. `
      + 'Keep one (--ungate the others).',

  /* ---- queries ---- */
  queryAt: (column: number, why: string | Sentence, caret: string): Sentence => sentence`The query cannot be read at column ${column}: ${why}${caret}`,
  queryQuotePhrase: (): string => 'this quote is never closed; end the phrase with another ".',
  queryQuoteValue: (): string => 'this quote is never closed; end the value with another ".',
  queryNoValue: (term: string): string => `"${term}" needs a value after it.`,
  queryOnlyDue: (op: string, key: string): string => `only due takes ${op} (due${op}2026-12-10); write ${key}:value.`,
  queryApproved: (): string => 'approved is yes or no.',
  queryIs: (): string => 'is takes archived (is:archived).',
  queryField: (): string => 'field is written field:Name=Value.',
  queryDue: (): string => 'due takes a date written 2026-12-10, or due:overdue, due:today.',
  queryNoKey: (key: string, keys: string): string => `there is no key "${key}"; the keys are ${keys}.`,
  queryEmptyPhrase: (): string => 'an empty phrase finds nothing; write words between the quotes.',
  queryTooLong: (most: number): string => `a query is at most ${most} characters.`,
  queryOrBefore: (): string => 'OR stands between two terms; put a term before it.',
  queryTooManyTerms: (most: number): string => `a query has at most ${most} terms.`,
  queryOrAfter: (): string => 'OR stands between two terms; put a term after it.',

  /* ---- people, sign-in, tokens, organisations ---- */
  orgName: (most: number): string => `An organisation's name is 1 to ${most} characters on one line, without control characters.`,
  removedPerson: (): string => 'You were removed from this binder by one of its admins: ask an admin to let you back in (binder admin set-role).',
  notSignedIn: (): string => 'You are not signed in to this binder: sign in again.',
  noPerson: (shown: string): string => `Nobody who signed in to this binder is "${shown}": binder admin people lists them.`,
  notARole: (shown: string): string => `A role is admin or member, not "${shown}".`,
  removedAlready: (name: string): string => `${name} was removed already.`,
  linkUsed: (): string => 'This sign-in link was used already, has expired (a link lasts 10 minutes) or is not one: ask for a new one with binder admin login-link.',
  noSession: (shown: string): string => `No open session has the id "${shown}" or is that person's: binder admin sessions lists them.`,
  noLoginLinks: (host: string): string => `This binder signs people in through ${host}: there are no login links. Open the page and choose "Sign in with ${host}".`,
  noToken: (shown: string): string => `No live token is named "${shown}" or starts so: binder admin token list shows them.`,
  serverOnly: (doing: string): string =>
    `Only whoever runs this server can ${doing}, from its machine: binder admin --org ORGANISATION side add FOLDER NAME. A folder of the server may be any organisation's.`,
  adminOnly: (doing: string): string => `Only an admin of this binder can ${doing}: ask one of its admins to do it.`,
  peopleSameName: (count: number, shown: string, byEmail: boolean, which: string): string =>
    `${count} people are called "${shown}": name one by ${byEmail ? 'e-mail' : 'id'} (${which}).`,
  lastAdmin: (name: string, change: 'member' | 'removed'): string =>
    `${name} is this binder's last admin, so cannot be ${change === 'member' ? 'made a member' : 'removed'}: make another person admin first (binder admin set-role PERSON admin).`,

  /* ---- agents' folders ---- */
  folderNotAbsolute: (shown: string): string => `An agent's folder is given as an absolute path: "${shown}" is not one.`,
  folderNameTaken: (clean: string, dir: string): string => `The name "${clean}" is taken by the folder ${dir}: choose another name.`,
  folderReadAlready: (folder: string, named: string): string => `The folder ${folder} is already read for ${named}: remove it first to rename it.`,
  folderTwin: (folder: string, dir: string, named: string): string => `The folder ${folder} is the same directory as ${dir}, read for ${named}: a folder is read for one agent only.`,
  noFolder: (given: string): string => `There is no agent folder named "${given}": binder admin sides lists them.`,

  /* ---- webhooks ---- */
  hookUrlPlain: (protocol: string, host: string): string => `A hook is told at an https:// URL, or at http:// on this machine (localhost, 127.0.0.1, [::1]): ${protocol}//${host} would carry the binder's records in the clear.`,
  noHook: (shown: string): string => `No hook "${shown}": binder admin hook list shows them.`,
  hookUrlWhole: (most: number): string => `Give the hook's URL whole, at most ${most} characters, with no space: https://example.com/binder-hook.`,
  notAUrl: (shown: string): string => `"${shown}" is not a URL: give one like https://example.com/binder-hook.`,
  hookUrlUser: (): string => 'A hook\'s URL carries no user or password (it is shown in hook list): the signature says the delivery is the binder\'s.',
  hookEventsUnknown: (events: string, unknown: readonly string[]): string =>
    `A hook is told of ${events}: not of ${unknown.map((w) => `"${w}"`).join(', ')}.`,

  /* ---- moving a binder out and in ---- */
  importIntoBinderExport: (): string => 'A Binder export brings its own lists: import it without --into.',
  importKeyTwice: (key: string, firstLine: number): string => `"${key}" is given twice (first on line ${firstLine}).`,
  importListMissing: (list: string): string => `its list "${list}" is not in the file.`,
  importPastGate: (state: string, gate: string, title: string): string => `"${state}" is past the gate "${gate}" of ${title}, and an imported record is not approved: import with --approved (you approve them all), or into a list without a gate.`,
  importNoAttachKind: (shown: string, kinds: string): string => `"${shown}" is not a kind of attachment: ${kinds}.`,
  importRefLength: (most: number): string => `An attachment's ref is 1 to ${most} characters.`,
  importNeedsCircle: (keys: readonly string[]): string =>
    `its needs close a circle (${keys.map((k) => `"${k}"`).join(' needs ')}): none of them could ever start.`,
  atLine: (line: number, said: string): string => `Line ${line}: ${said}`,
  importNotWho: (shown: string): string => `"${shown}" is not a person or an agent (person:NAME or agent:NAME).`,
  importNotTime: (shown: string): string => `"${shown}" is not a time.`,
  importStateNoId: (name: string): string => `The state "${name}" has no id of its own.`,
  importFirstGate: (state: string): string => `"${state}" cannot be a gate: it is the first state.`,
  importFieldNotUnderstood: (name: string): string => `The field "${name}" is not understood.`,
  importNoChoices: (name: string): string => `The choice field "${name}" has no choices.`,
  importListTwice: (list: string): string => `The list "${list}" is given twice.`,
  importNotAccess: (shown: string): string => `"${shown}" is not an agent's access.`,
  importNoInto: (format: string): string =>
    `Say which list the ${format === 'csv' ? 'rows' : 'records'} go into: --into LIST (binder admin create-list makes one).`,
  importIntoArchived: (title: string, list: string): string =>
    `"${title}" is archived: restore it first (binder admin archive-list ${list} --restore).`,

  /* ---- the store itself ---- */
  storeNotFolder: (dir: string): string => `Binder cannot keep its store in ${dir}: it is not a folder.`,
  storeFolderNotAllowed: (dir: string): string => `Binder cannot make the store folder ${dir}: it is not allowed to write there.`,
  storeFolderCannotMake: (dir: string, why: string): string => `Binder cannot make the store folder ${dir}: ${why}.`,
  storeFolderNotWritable: (dir: string): string => `Binder cannot keep its store in ${dir}: the folder is not writable.`,
  storeFileCannotMake: (path: string, why: string): string => `Binder cannot make its store file ${path}: ${why}.`,
  storeCannotOpen: (path: string, why: string | Sentence): Sentence => sentence`Binder cannot open its store ${path}: ${why}.`,
  openNotRegularFile: (): string => 'it is not a regular file',
  openFileNotWritable: (): string => 'the file is not writable',
  openNewer: (): string => 'it was made by a newer Binder; use that version',
  openNotADatabase: (): string => 'the file is not a database',
  openDamaged: (): string => 'the database is damaged',
  openNotWritable: (): string => 'it is not writable',
  openBusy: (): string => 'another process holds it locked; try again',
  openNewerSchema: (at: number, known: number): string => `its database was made by a newer Binder (schema ${at}, this one knows ${known}); use that version`,
  openUnreachable: (why: string): string => `its database cannot be reached (${why})`,

  /* ---- access, again ---- */
  seeArchivedLists: (): string => 'see the archived lists',
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
