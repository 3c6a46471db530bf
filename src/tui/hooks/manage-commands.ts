/**
 * The commands of the screens that manage the binder rather than its records: agents' access to
 * a list, the agent folders, a list's title, view, children first, states and fields. Every change is one act
 * through the keeper (`useAct`); moving about is the reducer's. A folder removed is offered back
 * (`u`); a state or a field removed is asked about first.
 */
import { confirm, fieldAddForm, listTitleForm, sideAddForm, stateAddForm, stateRenameForm, type Act } from '../../person/form.js';
import type { Answer } from '../../keeper/protocol.js';
import type { Command } from '../../person/keymap.js';
import { nextAccess, type AgentRow } from '../../person/rows.js';
import type { Action } from '../screen-reducer.js';
import type { Screen } from '../../person/screen-state.js';
import { safe } from '../../person/format.js';
import type { Words } from '../../person/words.js';
import type { ViewData } from './use-view-data.js';

export interface ManageDeps {
  screen: Screen | null;
  data: ViewData;
  dispatch: (action: Action) => void;
  act: (one: Act) => Promise<Answer>;
  /** An act done at once and offered back with `u` for a while. */
  undoable: (one: Act) => void;
  words: Words;
  /** The agent's access to the list as the store has it now (not as last drawn: a change asked may not be read back yet). */
  accessNow: (list: string, agent: string) => Promise<AgentRow['access']>;
  /** Runs `step` once every step given before it is done: changes of access go one after another. */
  inTurn: (step: () => Promise<unknown>) => void;
}

export function manageCommand(cmd: Command, deps: ManageDeps): void {
  const { screen, data, dispatch, act, undoable, words, accessNow, inTurn } = deps;
  const at = screen && 'cursor' in screen ? screen.cursor.at : 0;
  const managed = data.managed?.list ?? null;
  const row = data.editor[at];
  switch (cmd) {
    case 'accessLess':
    case 'accessMore': {
      const agent = data.agents[at];
      if (!agent || !managed) return;
      // Each step from the access the one before it left: ← ← from write is none, however fast.
      inTurn(async () => {
        const was = await accessNow(managed.id, agent.agent);
        const access = nextAccess(was, cmd === 'accessMore' ? 1 : -1);
        if (access !== was) await act({ op: 'grant', args: { list: managed.id, agent: agent.agent, access } });
      });
      return;
    }
    case 'sideAdd':
      dispatch({ type: 'dialog', dialog: sideAddForm(words) });
      return;
    case 'sideRemove': {
      const side = data.sides[at];
      if (side) undoable({ op: 'side-remove', args: { name: side.name } });
      return;
    }
    case 'listTitle':
      if (managed) dispatch({ type: 'dialog', dialog: listTitleForm(managed, words) });
      return;
    case 'listView':
      if (managed) void act({ op: 'edit-list', args: { list: managed.id, view: managed.view === 'board' ? 'table' : 'board' } });
      return;
    case 'stateAdd':
      if (managed) dispatch({ type: 'dialog', dialog: stateAddForm(managed, words) });
      return;
    case 'fieldAdd':
      if (managed) dispatch({ type: 'dialog', dialog: fieldAddForm(managed, words) });
      return;
    case 'rowRename':
      if (!managed || !row) return;
      if (row.kind === 'title') dispatch({ type: 'dialog', dialog: listTitleForm(managed, words) });
      else if (row.kind === 'view') manageCommand('listView', deps);
      else if (row.kind === 'children') manageCommand('childrenToggle', deps);
      else if (row.kind === 'state') dispatch({ type: 'dialog', dialog: stateRenameForm(managed, row.id, row.name, words) });
      return;
    case 'rowEarlier':
    case 'rowLater': {
      if (!managed || row?.kind !== 'state') return;
      const to = row.position + (cmd === 'rowLater' ? 1 : -1);
      if (to < 1 || to > managed.states.length) return;
      void act({ op: 'edit-list', args: { list: managed.id, moveState: [`${row.id}=${to}`] } }).then((answer) => {
        if (answer.ok) dispatch({ type: 'move', command: cmd === 'rowLater' ? 'down' : 'up', facts: data.facts });
      });
      return;
    }
    case 'gateToggle':
      if (managed && row?.kind === 'state') void act({ op: 'edit-list', args: { list: managed.id, [row.gate ? 'ungate' : 'gate']: [row.id] } });
      return;
    case 'childrenToggle':
      if (managed) void act({ op: 'edit-list', args: { list: managed.id, childrenFirst: managed.childrenFirst ? 'off' : 'on' } });
      return;
    case 'rowRemove':
      if (!managed || !row) return;
      if (row.kind === 'state') dispatch({ type: 'dialog', dialog: confirm(words.dialog.removeState(safe(row.name)), { do: 'state-remove', list: managed.id, state: row.id }) });
      else if (row.kind === 'field') dispatch({ type: 'dialog', dialog: confirm(words.dialog.removeField(safe(row.name)), { do: 'field-remove', list: managed.id, field: row.id }) });
      return;
    default:
      return;
  }
}
