/**
 * The screen's words in English. The catalog's titles and descriptions are read from the
 * catalog itself, never written again here.
 */
import { operation, type OpName } from '../keeper/operations.js';
import type { ArgName, Words } from './words.js';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

const argLabels: Record<ArgName, string> = {
  list: 'List', state: 'State', mine: 'Mine', archived: 'Archived', offset: 'Offset', id: 'Record',
  text: 'Text', title: 'Title', due: 'Due', owners: 'Owners', note: 'Note', fields: 'Fields',
  kind: 'Kind', ref: 'Ref', what: 'What', restore: 'Restore', withdraw: 'Withdraw', lang: 'Language',
  template: 'Template', view: 'View', addState: 'Add state', renameState: 'Rename state',
  moveState: 'Move state', removeState: 'Remove state', gate: 'Gate', ungate: 'Ungate',
  addField: 'Add field', removeField: 'Remove field', agent: 'Agent', access: 'Access',
  dir: 'Folder', name: 'Name', next: 'Next of', for: 'For', on: 'On', timeout: 'Timeout',
};

export const en: Words = {
  lang: 'en',
  op(name: OpName) {
    const spec = operation(name);
    return { title: spec?.title ?? name, describe: spec?.describe ?? '' };
  },
  arg(op: OpName, name: ArgName) {
    return { label: argLabels[name], hint: operation(op)?.args[name]?.describe ?? '' };
  },
  commands: {
    submit: 'do it', cancel: 'cancel', nextField: 'next field', prevField: 'previous field',
    choicePrev: 'previous choice', choiceNext: 'next choice', yes: 'yes',
    up: 'up', down: 'down', left: 'previous state', right: 'next state',
    pageUp: 'page up', pageDown: 'page down', top: 'first', bottom: 'last',
    open: 'open', back: 'back', switchPane: 'switch pane', help: 'help', quit: 'quit', search: 'search',
    filterState: 'only one state', filterMine: 'only mine', filterArchived: 'archived ones',
    archivedLists: 'archived lists', grant: 'agents\' access', sides: 'agent folders', editList: 'edit the list',
    approve: 'approve / withdraw', moveBack: 'move back', moveOn: 'move on', movePick: 'move to…',
    add: 'new record', edit: 'edit', note: 'add a note', editNote: 'edit my note',
    attach: 'attach', detach: 'detach', archive: 'archive / restore', delete: 'delete', release: 'release the claim',
    newList: 'new list', archiveList: 'archive / restore list', deleteList: 'delete list',
    accessLess: 'less access', accessMore: 'more access', sideAdd: 'add a folder', sideRemove: 'remove the folder',
    listTitle: 'rename the list', listView: 'board / table', stateAdd: 'add a state', fieldAdd: 'add a field',
    rowRename: 'rename', rowEarlier: 'earlier', rowLater: 'later', rowRemove: 'remove', gateToggle: 'gate on / off',
  },
  keyNames: {
    up: '↑', down: '↓', left: '←', right: '→', pageUp: 'PgUp', pageDown: 'PgDn', home: 'Home', end: 'End',
    return: 'Enter', escape: 'Esc', tab: 'Tab',
  },
  contexts: {
    lists: 'Lists', records: 'Records of a list', record: 'A record', search: 'Search: typing',
    results: 'Search: results', help: 'Help', welcome: 'First run', grant: 'Access', sides: 'Agent folders',
    'list-editor': 'Editing a list', form: 'A form', pick: 'Picking one', confirm: 'Confirming', typed: 'Confirming by typing',
  },
  never: 'never',
  secondsAgo: (n) => `${n}s ago`,
  minutesAgo: (n) => `${n} min ago`,
  hoursAgo: (n) => `${n} h ago`,
  status: {
    store: 'store',
    noFolders: 'no agent folder kept',
    folder: (name, dir, ago) => `${name} ${dir} asked ${ago}`,
    problem: (name, problem) => `${name}: ${problem}`,
    answered: (n) => `${plural(n, 'ask', 'asks')} answered`,
  },
  lists: {
    title: 'Lists',
    none: 'No list yet.',
    archivedTitle: 'Archived lists',
    archivedMark: 'archived',
    waiting: () => 'waiting for approval',
  },
  view: {
    empty: '—',
    moreAbove: (n) => `↑ ${n} more`,
    moreBelow: (n) => `↓ ${n} more`,
    count: (n) => plural(n, 'record', 'records'),
    gate: 'gate',
    approved: 'approved',
    attached: (n) => `+${n}`,
    taken: (name) => `⚑ ${name}`,
    columns: { id: '#', title: 'Title', state: 'State', owners: 'Owners', due: 'Due', attached: 'Att.', approved: 'Appr.' },
    filters: (state, mine, archived) =>
      [state ? `state ${state}` : '', mine ? 'mine' : '', archived ? 'archived' : ''].filter(Boolean).join(' · '),
    allStates: 'All states',
    noAccess: 'Pick a list at the left.',
  },
  record: {
    list: 'List', state: 'State',
    approvedBy: (name, at) => `approved by ${name}, ${at}`,
    notApproved: 'not approved',
    owners: 'Owners', due: 'Due', overdue: 'overdue', created: 'Created', updated: 'Updated', archived: 'archived',
    fields: 'Fields', notes: 'Notes', attached: 'Attached', history: 'History',
    nobody: 'nobody', none: 'none', edited: 'edited',
    gone: 'This record is no longer there.',
    taken: (name, until) => `taken by ${name} until ${until}`,
  },
  search: {
    title: 'Search',
    placeholder: 'words to find',
    noMatch: 'Nothing matches.',
    typeToSearch: 'Type to search every list.',
    results: (n) => plural(n, 'match', 'matches'),
  },
  help: { title: 'Keys' },
  welcome: {
    title: 'Welcome to Binder',
    intro: 'Binder keeps lists of records that you and your agents work on together. Agents ask through their folder; you approve.',
    pick: 'Make your first list from a template (Enter):',
    agentNote: (agent, dir) => `${agent} (${dir}) will be able to read and change it; g changes that.`,
  },
  firstGrant: (agent, dir, list) => `${agent} (${dir}) may now read and change “${list}”. Press g to change that.`,
  grant: {
    title: (list) => `Agents' access to “${list}”`,
    levels: { none: 'none', read: 'read', write: 'write' },
    noAgents: 'No agent folder is kept: S adds one.',
  },
  sides: {
    title: 'Agent folders',
    kept: 'Kept now',
    registered: 'Registered in the store',
    none: 'None.',
    answered: (n) => `${n} answered`,
    lastAsk: (ago) => `last asked ${ago}`,
  },
  listEditor: {
    title: (list) => `Editing “${list}”`,
    titleRow: 'Title', viewRow: 'View',
    views: { board: 'board', table: 'table' },
    states: 'State', fields: 'Field', gate: 'gate',
    newState: 'New state', newField: 'New field',
    fieldHint: 'NAME:TYPE (text, number, date, person, url) or NAME:choice:a|b|c',
    renameTo: 'New name',
  },
  dialog: {
    deleteRecord: (id, title, notes, attached) =>
      `Delete #${id} “${title}” for good? Its ${plural(notes, 'note', 'notes')}, ${plural(attached, 'attached thing', 'attached things')} and its history go with it; this cannot be undone.`,
    deleteList: (title, records) =>
      `Delete the list “${title}” and its ${plural(records, 'record', 'records')} for good? Nothing of them can be brought back.`,
    typeTitle: 'Type the list\'s title to confirm:',
    pickState: 'Move to which state?',
    pickTemplate: 'Make a list from which template?',
    filterState: 'Show which state?',
    editNote: 'Edit the note',
    removeField: (name) => `Remove the field “${name}” and every record's value of it?`,
  },
  notice: {
    due: (id, title, due) => `Due: #${id} ${title} (${due})`,
    more: (n) => `and ${n} more`,
    dismiss: 'Esc dismisses',
  },
  say: {
    nothingSelected: 'No record is selected.',
    noList: 'No list is open: pick one at the left, or make one with L.',
    noNote: 'Select a note first (↑ ↓).',
    notYourNote: 'Only its author may edit a note: this one is not yours.',
    noAttachment: 'Select an attached thing first (↑ ↓).',
    firstState: 'It is already in the first state.',
    lastState: 'It is already in the last state.',
    sameTitle: 'The title typed is not the list\'s: nothing was deleted.',
  },
};
