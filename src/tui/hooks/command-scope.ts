/**
 * What a command is done with: the screen as the last frame showed it, the record and list it is
 * about, and the ways to act, say and ask. Built once per command by `useCommands`, read by the
 * commands of the screen (screen-commands.ts) and of a record (record-commands.ts).
 */
import type { Answer } from '../../keeper/protocol.js';
import type { List, RecordFull, RecordSummary, RecordView } from '../../store/index.js';
import type { Act } from '../../person/form.js';
import type { Context } from '../../person/keymap.js';
import type { Part } from '../../person/record-lines.js';
import type { Screen, ScreenState } from '../../person/screen-state.js';
import type { BinderContext } from '../context.js';
import type { Action } from '../screen-reducer.js';
import type { UndoDeps } from './undo-commands.js';
import type { ViewData } from './use-view-data.js';

export interface CommandScope {
  binder: BinderContext;
  state: ScreenState;
  screen: Screen | null;
  data: ViewData;
  context: Context;
  dispatch: (action: Action) => void;
  say: (text: string, tone: 'done' | 'refused' | 'info') => void;
  /** One change through the keeper as the person, kept for `u` where it can be; its sentence is the message line. */
  act: (one: Act) => Promise<Answer>;
  /** The record opened, when one is. */
  opened: RecordView | null;
  /** The record the command is about: the one opened, or the one under the cursor. */
  current: RecordSummary | RecordFull | null;
  list: List | null;
  /** In a record opened, the part under the cursor (a note, an attachment, a record it needs). */
  part: Part | null;
  /** The record the command is about, or null said as "nothing selected". */
  needRecord: () => RecordSummary | RecordFull | null;
  /** The list the command is about, or null said as "no list". */
  needList: () => List | null;
  /** The record as the store has it now, or null said as gone. */
  full: (id: number) => Promise<RecordFull | null>;
  /** The same with what it lies under and what lies under it, as `get` gives them. */
  view: (id: number) => Promise<RecordView | null>;
  /** A list was made: shown, and the first one ever opened to the first agent folder. */
  made: (answer: Answer, wasEmpty: boolean) => Promise<void>;
  /** Done at once (kept for `u` to take back, as every act is where it can be). */
  undoable: (one: Act) => void;
  /** What `u` takes back with: the act that is never kept itself. */
  undo: UndoDeps;
}
