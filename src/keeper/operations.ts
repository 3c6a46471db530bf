/**
 * The catalog's light half: every operation's name, words and arguments, as plain data.
 * The `binder` command, `binder admin`, the MCP tools, the keeper's validation (zod schemas
 * derived in `schemas.ts`) and the screen's actions are all made from this one table.
 * It must stay cheap to import: the agent's command loads it on every call (no zod here).
 */

export type { ArgKind, ArgSpec, OpSpec } from './op-spec.js';
import type { ArgSpec, OpDraft, OpSpec, Whose } from './op-spec.js';
import { adminWords as wordsOf, personsOperation } from '../store/light.js';

const list: ArgSpec = { kind: 'text', describe: 'its name or id', required: true, positional: true, placeholder: 'LIST' };
const record: ArgSpec = { kind: 'record', describe: '12 or #12', required: true, positional: true, placeholder: 'ID' };
/** A deletion's yes, given ahead: `binder admin` asks on a terminal and needs it when piped. */
const yes: ArgSpec = { kind: 'flag', describe: 'delete without asking (needed when not on a terminal)' };
const due: ArgSpec = { kind: 'due', describe: 'YYYY-MM-DD[ HH:MM]; none clears', placeholder: 'DATE' };
const owners: ArgSpec = { kind: 'owners', describe: 'owners: me, an id, or none', flag: 'owner', placeholder: 'me|ID|none' };
const fields: ArgSpec = { kind: 'fields', describe: 'field values by field name', flag: 'field', placeholder: 'name=value' };
const parent: ArgSpec = { kind: 'text', describe: 'parent record; none', placeholder: 'ID' };
/** The list's labels field, label by label: a bare word sets them, `+bug` adds, `-bug` takes away. */
const label: ArgSpec = { kind: 'texts', describe: 'bug sets; +bug adds, -bug removes', placeholder: 'LABEL' };

/** How many of a record's latest notes and history rows `get` shows unless told, and at most. */
export const GET_NOTES = 10;
export const GET_HISTORY = 10;
export const GET_MOST = 200;

export const ATTACH_KINDS = ['message', 'file', 'asset', 'branch', 'link', 'record'] as const;
export const ACCESS_LEVELS = ['read', 'write', 'none'] as const;
export const VIEWS = ['board', 'table'] as const;
export const LANGS = ['en', 'fr'] as const;
export const ON_OFF = ['on', 'off'] as const;

const op = <const T extends OpDraft>(spec: T): T => spec;

const CATALOG = [
  /* ---- the agents' verbs ---- */
  op({
    name: 'lists', title: 'Lists', describe: 'Your lists, with their counts and your access.',
    example: 'binder lists', readOnly: true, idempotent: true,
    // Agents never see an archived list (src/store/access.ts): a person's view alone.
    args: { archived: { kind: 'flag', describe: 'the archived lists too', person: true } },
  }),
  op({
    name: 'show', title: 'Show a list', describe: 'A list\'s records by state (50 each; filter for more).',
    example: 'binder show Tasks --query "owner:me due<2026-12-10"', readOnly: true, idempotent: true,
    args: {
      list,
      state: { kind: 'text', describe: 'only this state', placeholder: 'STATE' },
      mine: { kind: 'flag', describe: 'only yours' },
      archived: { kind: 'flag', describe: 'archived ones instead' },
      query: { kind: 'text', describe: 'a query', placeholder: 'QUERY' },
      offset: { kind: 'number', describe: 'skip N per state', placeholder: 'N' },
    },
  }),
  op({
    name: 'get', title: 'Get a record', describe: 'One record with its latest notes and history.',
    example: 'binder get 12', readOnly: true, idempotent: true,
    args: {
      id: record,
      notes: { kind: 'number', describe: `notes shown (${GET_NOTES})`, placeholder: 'N', max: GET_MOST },
      history: { kind: 'number', describe: `history rows shown (${GET_HISTORY})`, placeholder: 'N', max: GET_MOST },
      offset: { kind: 'number', describe: 'skip the latest N of both', placeholder: 'N' },
    },
  }),
  op({
    name: 'search', title: 'Search', describe: 'Records a query finds: words, state:Doing owner:me -label:x, OR.',
    example: 'binder search login state:Doing owner:me', readOnly: true, idempotent: true,
    args: {
      text: { kind: 'words', describe: 'the query', required: true, positional: true, placeholder: 'QUERY' },
      archived: { kind: 'flag', describe: 'archived too' },
    },
  }),
  op({
    name: 'add', title: 'Add a record', describe: 'Add a record to a list (first state unless told).',
    example: 'binder add Batches "Dark mode" --note "login page only"', readOnly: false, idempotent: false,
    args: {
      list,
      title: { kind: 'words', describe: 'the title', required: true, positional: true, placeholder: 'TITLE' },
      state: { kind: 'text', describe: 'start state', placeholder: 'STATE' },
      due, owners,
      note: { kind: 'text', describe: 'a first note', placeholder: 'TEXT' },
      fields, label, parent,
    },
  }),
  op({
    name: 'edit', title: 'Edit a record', describe: 'Change a record\'s title, fields, owners or due date.',
    example: 'binder edit 12 --due 2026-12-01 --owner me', readOnly: false, idempotent: true,
    args: {
      id: record,
      title: { kind: 'text', describe: 'a new title', placeholder: 'TITLE' },
      due, owners, fields, label, parent,
    },
  }),
  op({
    name: 'move', title: 'Move a record', describe: 'Put a record in another state (past a gate once approved).',
    example: 'binder move 12 Doing', readOnly: false, idempotent: true,
    args: {
      id: record, state: { kind: 'text', describe: 'the state', required: true, positional: true, placeholder: 'STATE' },
      seen: { kind: 'text', describe: 'a person\'s move past the gate approves: the mark of the title and fields shown (get gives it), refused if the record says otherwise now', placeholder: 'MARK', person: true },
    },
  }),
  op({
    name: 'note', title: 'Add a note', describe: 'Note a decision, fact or result on a record.',
    example: 'binder note 12 "tests pass on the branch"', readOnly: false, idempotent: false,
    args: { id: record, text: { kind: 'words', describe: 'the note', required: true, positional: true, placeholder: 'TEXT' } },
  }),
  op({
    name: 'attach', title: 'Attach', describe: 'Attach something to a record.',
    example: 'binder attach 12 branch site:dark-mode "the work"', readOnly: false, idempotent: false,
    args: {
      id: record,
      kind: { kind: 'choice', describe: 'what it is', choices: ATTACH_KINDS, required: true, positional: true, placeholder: 'KIND' },
      ref: { kind: 'text', describe: 'a path, URL, repo:branch, message id or record number', required: true, positional: true, placeholder: 'REF' },
      title: { kind: 'words', describe: 'a title', positional: true, placeholder: 'TITLE' },
    },
  }),
  op({
    name: 'detach', title: 'Detach', describe: 'Take an attachment off a record.',
    example: 'binder detach 12 site:dark-mode', readOnly: false, idempotent: true,
    args: { id: record, what: { kind: 'text', describe: 'its ref or id', required: true, positional: true, placeholder: 'WHAT' } },
  }),
  op({
    name: 'archive', title: 'Archive a record', describe: 'Archive a record (show --archived finds it).',
    example: 'binder archive 12', readOnly: false, idempotent: true,
    args: { id: record, restore: { kind: 'flag', describe: 'restore it instead', hidden: true } },
  }),
  op({
    name: 'restore', title: 'Restore a record', describe: 'Unarchive a record.',
    example: 'binder restore 12', readOnly: false, idempotent: true, args: { id: record },
  }),

  /* ---- working together ---- */
  op({
    name: 'take', title: 'Take a record', describe: 'Claim a record so no one else works on it.',
    example: 'binder take --next Batches', readOnly: false, idempotent: false,
    args: {
      id: { ...record, required: false },
      next: { kind: 'text', describe: 'or the first ready of this list', placeholder: 'LIST' },
      for: { kind: 'text', describe: 'how long: 30m (default) to 1d', placeholder: 'TIME' },
    },
  }),
  op({
    name: 'release', title: 'Release a record', describe: 'Give back a record you took.',
    example: 'binder release 12 --note "done: see the branch"', readOnly: false, idempotent: true,
    args: { id: record, note: { kind: 'text', describe: 'a note left on it', placeholder: 'TEXT' } },
  }),
  op({
    name: 'needs', title: 'Needs', describe: 'A record waits for others to be done.',
    example: 'binder needs 20 12 14', readOnly: false, idempotent: true,
    args: {
      id: record,
      others: { kind: 'words', describe: '12 14', required: true, positional: true, placeholder: 'OTHER' },
      remove: { kind: 'flag', describe: 'undo' },
    },
  }),
  op({
    name: 'ready', title: 'Ready', describe: 'Records you may start now: approved, free, not done; first to take first.',
    example: 'binder ready Batches --query "label:bug"', readOnly: true, idempotent: true,
    args: {
      list: { ...list, required: false },
      blocked: { kind: 'flag', describe: 'what waits' },
      query: { kind: 'text', describe: 'only what it finds', placeholder: 'QUERY' },
    },
  }),
  op({
    name: 'brief', title: 'Brief', describe: 'What changed since you last looked, each change once.',
    example: 'binder brief', readOnly: true, idempotent: false,
    args: {
      peek: { kind: 'flag', describe: 'the latest first, with counts, marking nothing seen', person: true },
      seen: { kind: 'number', describe: 'mark the changes through this one seen', placeholder: 'CHANGE', person: true },
    },
  }),
  op({
    name: 'wait', title: 'Wait', describe: 'Wait for a change you can see; told as brief tells it.',
    example: 'binder wait 12 --timeout 5m', readOnly: true, idempotent: false, holds: 'timeout',
    args: {
      on: { kind: 'text', describe: 'only this list or record (#12)', positional: true, placeholder: 'LIST|ID' },
      timeout: { kind: 'text', describe: 'at most this long: 60s (default)', placeholder: 'TIME' },
    },
  }),

  /* ---- a person's alone ---- */
  op({
    name: 'approve', title: 'Approve', describe: 'Approve a record so it may pass its list\'s gate, or withdraw the approval.',
    example: 'binder admin approve 12', readOnly: false, idempotent: true,
    args: {
      id: record, withdraw: { kind: 'flag', describe: 'withdraw the approval' },
      seen: { kind: 'text', describe: 'the mark of the title and fields you were shown (the screen and the page give it): refused if the record says otherwise now', placeholder: 'MARK' },
    },
  }),
  op({
    name: 'delete', title: 'Delete a record', describe: 'Delete a record and all of it, for good.',
    example: 'binder admin delete 12', readOnly: false, idempotent: false,
    args: { id: record, yes, children: { kind: 'choice', describe: 'what becomes of the records under it', choices: ['orphan', 'delete'], placeholder: 'WHAT' } },
  }),
  op({
    name: 'edit-note', title: 'Edit a note', describe: 'Rewrite a note of a record; only its author may.',
    example: 'binder admin edit-note 12 3 "the login page and the signup page"', readOnly: false, idempotent: true,
    args: {
      id: record,
      note: { kind: 'number', describe: 'the note\'s number, from get', required: true, positional: true, placeholder: 'NOTE' },
      text: { kind: 'words', describe: 'the new text', required: true, positional: true, placeholder: 'TEXT' },
    },
  }),
  op({
    name: 'templates', title: 'Templates', describe: 'The templates a list can be made from.',
    example: 'binder admin templates --lang fr', readOnly: true, idempotent: true,
    args: { lang: { kind: 'choice', describe: 'en or fr', choices: LANGS, placeholder: 'LANG' } },
  }),
  op({
    name: 'create-list', title: 'Make a list', describe: 'Make a list from a template.',
    example: 'binder admin create-list "Site work" --template batches', readOnly: false, idempotent: false,
    args: {
      title: { kind: 'words', describe: 'its title (the template\'s by default)', positional: true, placeholder: 'TITLE' },
      template: { kind: 'text', describe: 'batches, tasks, customers, people, roadmap or blank', required: true, placeholder: 'T' },
      lang: { kind: 'choice', describe: 'the template\'s language', choices: LANGS, placeholder: 'LANG' },
    },
  }),
  op({
    name: 'edit-list', title: 'Edit a list', describe: 'Change a list: title, view, states and their order, its gate, fields, whether children come first.',
    example: 'binder admin edit-list tasks --gate Review', readOnly: false, idempotent: false,
    args: {
      list,
      title: { kind: 'text', describe: 'a new title', placeholder: 'TITLE' },
      view: { kind: 'choice', describe: 'board or table', choices: VIEWS, placeholder: 'VIEW' },
      addState: { kind: 'texts', describe: 'add a state at the end', flag: 'add-state', placeholder: 'NAME' },
      renameState: { kind: 'texts', describe: 'rename a state, OLD=NEW', flag: 'rename-state', placeholder: 'OLD=NEW' },
      moveState: { kind: 'texts', describe: 'put a state at a position (1 = first), NAME=N', flag: 'move-state', placeholder: 'NAME=N' },
      removeState: { kind: 'texts', describe: 'remove an empty state', flag: 'remove-state', placeholder: 'NAME' },
      gate: { kind: 'texts', describe: 'make a state a gate', placeholder: 'NAME' },
      ungate: { kind: 'texts', describe: 'make a state no longer a gate', placeholder: 'NAME' },
      addField: { kind: 'texts', describe: 'add a field, NAME:TYPE or NAME:choice:a|b|c', flag: 'add-field', placeholder: 'NAME:TYPE' },
      removeField: { kind: 'texts', describe: 'remove a field and its values', flag: 'remove-field', placeholder: 'NAME' },
      childrenFirst: { kind: 'choice', describe: 'on: a parent is ready only once its children are done', choices: ON_OFF, flag: 'children-first', placeholder: 'on|off' },
    },
  }),
  op({
    name: 'grant', title: 'Grant', describe: 'Give an agent read or write access to a list, or take it away (none).',
    example: 'binder admin grant batches Agent write', readOnly: false, idempotent: true,
    args: {
      list,
      agent: { kind: 'text', describe: 'the agent: its name or id', required: true, positional: true, placeholder: 'AGENT' },
      access: { kind: 'choice', describe: 'read, write or none', choices: ACCESS_LEVELS, required: true, positional: true, placeholder: 'ACCESS' },
    },
  }),
  op({
    name: 'archive-list', title: 'Archive a list', describe: 'Archive a list (or restore it): it leaves everyone\'s lists.',
    example: 'binder admin archive-list batches', readOnly: false, idempotent: true,
    args: { list, restore: { kind: 'flag', describe: 'restore it instead' } },
  }),
  op({
    name: 'delete-list', title: 'Delete a list', describe: 'Delete a list with all its records, for good.',
    example: 'binder admin delete-list batches', readOnly: false, idempotent: false, args: { list, yes },
  }),
  op({
    name: 'sides', title: 'Agent folders', describe: 'The agents\' folders the keeper reads.',
    example: 'binder admin sides', readOnly: true, idempotent: true, args: {},
  }),
  op({
    name: 'side-add', title: 'Add an agent folder', describe: 'Register an agent\'s folder for the keeper to read, under a name.',
    example: 'binder admin side add ~/work/site/.binder Claude', readOnly: false, idempotent: false,
    args: {
      dir: { kind: 'text', describe: 'the folder', required: true, positional: true, placeholder: 'FOLDER' },
      name: { kind: 'words', describe: 'the agent\'s name', required: true, positional: true, placeholder: 'NAME' },
    },
  }),
  op({
    name: 'side-remove', title: 'Remove an agent folder', describe: 'Stop reading an agent\'s folder.',
    example: 'binder admin side remove Claude', readOnly: false, idempotent: false,
    args: { name: { kind: 'words', describe: 'the agent\'s name', required: true, positional: true, placeholder: 'NAME' } },
  }),
  op({
    name: 'token-list', title: 'Agent tokens', describe: 'The agents\' tokens for HTTP: name, prefix, made, last used, expiry (never the token).',
    example: 'binder admin token list', readOnly: true, idempotent: true, args: {},
  }),
  op({
    name: 'token-add', title: 'Make an agent token', describe: 'Make a token an agent asks over HTTP with, as the agent of that name; shown once.',
    example: 'binder admin token add Claude --expires 30d', readOnly: false, idempotent: false, shownOnce: true,
    args: {
      name: { kind: 'words', describe: 'the agent\'s name', required: true, positional: true, placeholder: 'NAME' },
      expires: { kind: 'text', describe: 'it stops working after this long: 30d, 12h…', placeholder: 'TIME' },
    },
  }),
  op({
    name: 'token-revoke', title: 'Revoke an agent token', describe: 'Revoke a token (by its prefix) or every token of an agent (by its name).',
    example: 'binder admin token revoke Claude', readOnly: false, idempotent: false,
    args: { token: { kind: 'words', describe: 'the agent\'s name, or the token\'s prefix', required: true, positional: true, placeholder: 'NAME|PREFIX' } },
  }),

  /* ---- the people who sign in, and their roles (an admin's) ---- */
  op({
    name: 'people', title: 'People', describe: 'Everyone who signed in to this binder, with their roles (admin or member): a member sees them too.',
    example: 'binder admin people', readOnly: true, idempotent: true, args: {},
  }),
  op({
    name: 'set-role', title: 'Set a role', describe: 'Make a person an admin or a member (a removed person is let back in); never the last admin a member.',
    example: 'binder admin set-role ann@example.com admin', readOnly: false, idempotent: true,
    args: {
      person: { kind: 'text', describe: 'the person: their e-mail, name or id', required: true, positional: true, placeholder: 'PERSON' },
      role: { kind: 'choice', describe: 'admin or member', choices: ['admin', 'member'], required: true, positional: true, placeholder: 'ROLE' },
    },
  }),
  op({
    name: 'remove-person', title: 'Remove a person', describe: 'Take a person out of this binder: refused from now on, their history kept; never the last admin.',
    example: 'binder admin remove-person bob@example.com', readOnly: false, idempotent: false,
    args: { person: { kind: 'text', describe: 'the person: their e-mail, name or id', required: true, positional: true, placeholder: 'PERSON' } },
  }),
] as const satisfies readonly OpDraft[];

/** Whose the operation of that name is: an agent's too, or (the store's table says) a person's alone. */
function whose(name: string): Whose {
  const person = personsOperation(name);
  if (!person) return { agents: true };
  return { agents: false, doing: person.doing.en, ...(person.admin ? { admin: true as const } : {}) };
}

/** Every operation, in catalog order, with whose it is. */
export const OPERATIONS: readonly ((typeof CATALOG)[number] & Whose)[] = CATALOG.map((o) => ({ ...o, ...whose(o.name) }));

export type OpName = (typeof OPERATIONS)[number]['name'];

const byName = new Map<string, OpSpec>(OPERATIONS.map((o) => [o.name, o]));

/** The operation of that name, or undefined (never a prototype property). */
export function operation(name: string): OpSpec | undefined {
  return byName.get(name);
}

/** An operation as an agent's faces show it: without the arguments that are a person's alone. */
function forAgents(op: OpSpec): OpSpec {
  if (!Object.values(op.args).some((arg) => arg.person)) return op;
  return { ...op, args: Object.fromEntries(Object.entries(op.args).filter(([, arg]) => !arg.person)) };
}

/** The operations an agent may call, in catalog order, as its faces show them. */
export const AGENT_OPERATIONS: readonly OpSpec[] = OPERATIONS.filter((o) => o.agents).map(forAgents);

/** The operations that are a person's alone, by name. */
const PERSON_OPERATIONS = new Map<string, OpSpec & { agents: false }>(
  OPERATIONS.flatMap((o): (OpSpec & { agents: false })[] => (o.agents ? [] : [o])).map((o) => [o.name, o]),
);

/** The words of `binder admin` that run `op`: the folder and token operations are `side add`, `token list`… */
export const adminWords = (op: OpSpec): string[] => wordsOf(op.name);

/**
 * The person's operation an agent named, if it named one: by its name (`approve`), or as
 * `binder admin` spells it (`side add`, `side`, `token add`, `token`).
 */
export function personOperation(words: readonly string[]): (OpSpec & { agents: false }) | undefined {
  const [first = '', second = ''] = words;
  if (first === 'side' || first === 'token') return PERSON_OPERATIONS.get(`${first}-${second}`) ?? PERSON_OPERATIONS.get(`${first}-add`);
  return PERSON_OPERATIONS.get(first);
}

/** What an agent reads when it asks for a person's operation: whose it is, and how to have it done. */
export function onlyAPerson(op: OpSpec & { agents: false }): string {
  return `Only a person can ${op.doing}: ask one to do it on their screen (binder tui) or with binder admin ${adminWords(op).join(' ')}.`;
}
