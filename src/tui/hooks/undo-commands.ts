/**
 * The person's changes kept to be taken back, and `u`, which takes back the latest. A change that
 * can be taken back is done with what stood before it read first (the record, or the agent's
 * access), so that `src/person/undo.ts` can say what takes it back. Taking back is new acts
 * through the keeper, never a rewrite; it is refused with a sentence when someone else changed
 * the record (or the access) since, and asks first when it withdraws an approval. It never
 * changes the store by itself.
 */
import type { Answer } from '../../keeper/protocol.js';
import type { Store } from '../../store/index.js';
import type { RecordSummary, Who } from '../../store/index.js';
import { confirm, type Act } from '../../person/form.js';
import { safe } from '../../person/format.js';
import { BARE } from '../../person/reading.js';
import type { Undo } from '../../person/screen-state.js';
import { shapeMark, undoing, type Before } from '../../person/undo.js';
import type { Words } from '../../person/words.js';
import type { Action } from '../screen-reducer.js';

/** Operations whose record is read before them, to be taken back to it. */
const ON_RECORD = new Set(['move', 'approve', 'edit', 'archive']);
/** Operations a person's screen keeps to be taken back. */
const KEPT = new Set([...ON_RECORD, 'edit-note', 'detach', 'archive-list', 'side-remove', 'grant']);

/** The words of note `note` of record `record` now; null when it is not there. */
async function noteText(deps: UndoDeps, record: number, note: number): Promise<string | null> {
  const seen = await deps.store.get(record, deps.person, { history: 0 }).catch(() => null);
  return seen?.record.notes.find((n) => n.id === note)?.text ?? null;
}

export interface UndoDeps {
  store: Store;
  person: Who;
  words: Words;
  dispatch: (action: Action) => void;
  say: (text: string, tone: 'done' | 'refused' | 'info') => void;
  /** One act through the keeper as the person, its sentence the message line; never kept itself. */
  act: (one: Act) => Promise<Answer>;
  /** An agent's name as people know it. */
  nameOf: (id: string) => string;
}

async function beforeOf(one: Act, deps: UndoDeps): Promise<{ before: Before; states: Map<string, string> }> {
  const states = new Map<string, string>();
  try {
    if (ON_RECORD.has(one.op) && typeof one.args.id === 'number') {
      const seen = await deps.store.get(one.args.id, deps.person, BARE);
      for (const s of seen.list.states) states.set(s.id, s.name);
      return { before: { record: seen.record }, states };
    }
    if (one.op === 'edit-note') {
      const text = await noteText(deps, Number(one.args.id), Number(one.args.note));
      return { before: text === null ? null : { note: text }, states };
    }
    if (one.op === 'grant') {
      const list = await deps.store.list(String(one.args.list), deps.person);
      return { before: { access: list.access[String(one.args.agent)] ?? 'none' }, states };
    }
  } catch {
    // Not readable: the act says why, and nothing is kept to take back.
  }
  return { before: null, states };
}

/**
 * The person's act, kept to be taken back when it can be. A move past the gate, which approves the
 * record, says so.
 */
export function keeping(deps: UndoDeps): (one: Act) => Promise<Answer> {
  return async (one) => {
    if (!KEPT.has(one.op)) return deps.act(one);
    const { before, states } = await beforeOf(one, deps);
    const answer = await deps.act(one);
    const after = answer.data as RecordSummary | undefined;
    if (answer.ok && one.op === 'move' && before && 'record' in before && !before.record.approved && after?.approved) {
      deps.say(deps.words.done.movedApproving(after.id, safe(states.get(after.state) ?? after.state)), 'done');
    }
    const back = undoing(one, answer, before);
    if (back) deps.dispatch({ type: 'undo-push', undo: back });
    return answer;
  };
}

/** `u`: the latest change taken back, or asked about first when that withdraws an approval. */
export function undoLatest(undos: readonly Undo[], deps: UndoDeps): void {
  const latest = undos[undos.length - 1];
  if (!latest) { deps.say(deps.words.say.nothingToUndo, 'info'); return; }
  if (!latest.asks || latest.record === null) { void takeBack(latest, deps); return; }
  const id = latest.record;
  void deps.store.get(id, deps.person, BARE).then(
    (seen) => deps.dispatch({ type: 'dialog', dialog: confirm(deps.words.dialog.undoApproval(safe(latest.said), id, safe(seen.record.title)), { do: 'undo' }) }),
    () => void takeBack(latest, deps),
  );
}

/** The change taken back, unless someone else changed what it changed since. */
export async function takeBack(undo: Undo, deps: UndoDeps): Promise<void> {
  const { store, person, words, say } = deps;
  deps.dispatch({ type: 'undo-pop' });
  if (undo.record !== null) {
    const now = await store.get(undo.record, person, BARE).then((v) => v.record, () => null);
    if (!now) { say(words.record.gone, 'refused'); return; }
    if (shapeMark(now) !== undo.mark) { say(words.say.undoChanged(undo.record), 'refused'); return; }
  }
  if (undo.access) {
    const { list, agent, access } = undo.access;
    const now = await store.list(list, person).then((l) => l.access[agent] ?? 'none', () => null);
    if (now !== access) { say(words.say.undoAccessChanged(safe(deps.nameOf(agent))), 'refused'); return; }
  }
  if (undo.note && (await noteText(deps, undo.note.record, undo.note.id)) !== undo.note.text) {
    say(words.say.undoChanged(undo.note.record), 'refused');
    return;
  }
  for (const one of undo.acts) if (!(await deps.act(one)).ok) return;
  say(words.say.undone(undo.said), 'done');
}
