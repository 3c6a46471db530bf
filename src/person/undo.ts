/**
 * Which of a person's changes can be taken back, and the acts that take each back, from what the
 * keeper answered and what the record (or the access) was just before: a move goes back to the
 * state it came from, an edit puts back the values it changed (a note rewritten, its words), an approval is withdrawn and a
 * withdrawal approved again, a thing detached is attached again, a record or a list archived is
 * restored, a folder removed is registered again, an agent's access is set back. The screen and
 * the web page take back from this one table. Pure: it reads answers, never the store; taking
 * back is always new acts through the keeper, never a rewrite of what happened.
 */
import type { Answer } from '../keeper/protocol.js';
import type { Access, Attachment, RecordSummary, Side } from '../store/index.js';
import { approvalMark } from '../store/light.js';
import type { Act } from './form.js';

/** How long the page offers a change back with `u`. */
export const UNDO_MS = 10_000;

/** What a record looked like, as far as taking a change back goes. */
export type RecordShape = Pick<RecordSummary, 'id' | 'title' | 'state' | 'approved' | 'fields' | 'owners' | 'due' | 'archived'>;

/** What was there before a change: the record it changed, the agent's access it set, or the note it rewrote. */
export type Before = { record: RecordShape } | { access: Access | 'none' } | { note: string } | null;

/** A change taken back: its acts, in order, and what must still stand for them to be done. */
export interface Undoing {
  acts: Act[];
  /** The record it is about, whose shape must still be `mark` (else someone else changed it since). */
  record: number | null;
  mark: string | null;
  /** The access the change set, which must still stand: `{ list, agent, access }`. */
  access: { list: string; agent: string; access: Access | 'none' } | null;
  /** The note the change rewrote, whose words must still be `text`. */
  note?: { record: number; id: number; text: string };
  /** It withdraws an approval: the person is asked first. */
  asks: boolean;
}

/**
 * A mark of what a person could see of a record that a change of theirs might be taken back over:
 * its title, fields, state, approval, archiving, owners and due date. Another hand's change to any
 * of them since makes the mark differ.
 */
export function shapeMark(r: RecordShape): string {
  return approvalMark(r.title, r.fields, JSON.stringify([r.state, r.approved !== null, r.archived, r.owners, r.due]));
}

const one = (act: Act): Undoing => ({ acts: [act], record: null, mark: null, access: null, asks: false });
const onRecord = (after: RecordShape, acts: Act[], asks = false): Undoing => ({ acts, record: after.id, mark: shapeMark(after), access: null, asks });

/** An edit's acts back: the title, owners, due date and field values it changed, as they were. */
function editBack(before: RecordShape, after: RecordShape): Act | null {
  const args: Record<string, unknown> = { id: after.id };
  if (before.title !== after.title) args.title = before.title;
  if (JSON.stringify(before.owners) !== JSON.stringify(after.owners)) args.owners = before.owners;
  if (before.due !== after.due) args.due = before.due ?? 'none';
  const fields: Record<string, string> = {};
  for (const id of new Set([...Object.keys(before.fields), ...Object.keys(after.fields)])) {
    if ((before.fields[id] ?? '') !== (after.fields[id] ?? '')) fields[id] = before.fields[id] ?? '';
  }
  if (Object.keys(fields).length) args.fields = fields;
  return Object.keys(args).length > 1 ? { op: 'edit', args } : null;
}

/** A move (or a withdrawal that put the record back) taken back: to where it stood, from where it stands now. */
const moveBack = (before: RecordShape, after: RecordShape): Act =>
  ({ op: 'move', args: { id: after.id, state: before.state, seen: approvalMark(after.title, after.fields, after.state) } });

/** A record's change taken back; null when it changed nothing that can be. */
function recordBack(act: Act, before: RecordShape, after: RecordShape): Undoing | null {
  if (shapeMark(before) === shapeMark(after)) return null;
  switch (act.op) {
    case 'move': {
      const back = moveBack(before, after);
      // A move past the gate approved it: taken back, the approval is withdrawn too (asked first).
      if (!before.approved && after.approved) return onRecord(after, [back, { op: 'approve', args: { id: after.id, withdraw: true } }], true);
      return onRecord(after, [back]);
    }
    case 'approve': {
      if (!before.approved && after.approved) return onRecord(after, [{ op: 'approve', args: { id: after.id, withdraw: true } }], true);
      const again: Act = { op: 'approve', args: { id: after.id, withdraw: false, seen: approvalMark(after.title, after.fields) } };
      if (before.state === after.state) return onRecord(after, [again]);
      // Approved again, then put back where it stood past the gate.
      return onRecord(after, [again, { op: 'move', args: { id: after.id, state: before.state, seen: approvalMark(after.title, after.fields, after.state) } }]);
    }
    case 'edit': {
      const back = editBack(before, after);
      return back ? onRecord(after, [back]) : null;
    }
    case 'archive': return act.args.restore ? null : onRecord(after, [{ op: 'restore', args: { id: after.id } }]);
    default: return null;
  }
}

/**
 * What takes `act` back, from the keeper's answer and what stood before it (`before`); null when
 * nothing can or there is nothing to take back.
 */
export function undoing(act: Act, answer: Pick<Answer, 'ok' | 'data'>, before: Before = null): Undoing | null {
  if (!answer.ok) return null;
  const after = answer.data as RecordShape | undefined | null;
  if (before && 'record' in before && after && typeof after.id === 'number') {
    const back = recordBack(act, before.record, after);
    if (back || act.op !== 'archive') return back;
  }
  switch (act.op) {
    case 'detach': {
      const gone = (answer.data as { record: number; attachment: Attachment } | undefined | null);
      if (!gone?.attachment) return null;
      const { kind, ref, title } = gone.attachment;
      return one({ op: 'attach', args: { id: gone.record, kind, ref, ...(title ? { title } : {}) } });
    }
    case 'archive-list': return act.args.restore ? null : one({ op: 'archive-list', args: { list: act.args.list, restore: true } });
    case 'side-remove': {
      const side = answer.data as Side | undefined | null;
      return side ? one({ op: 'side-add', args: { dir: side.dir, name: side.name } }) : null;
    }
    case 'archive': return act.args.restore ? null : one({ op: 'restore', args: { id: act.args.id } });
    case 'edit-note': {
      const note = answer.data as { id?: number; text?: string } | undefined | null;
      if (!before || !('note' in before) || typeof note?.id !== 'number' || note.text === undefined || note.text === before.note) return null;
      const record = Number(act.args.id);
      return { ...one({ op: 'edit-note', args: { id: record, note: note.id, text: before.note } }), note: { record, id: note.id, text: note.text } };
    }
    case 'grant': {
      if (!before || !('access' in before)) return null;
      const set = (answer.data as { access?: Access | null } | undefined)?.access ?? 'none';
      if (set === before.access) return null;
      const list = String(act.args.list);
      const agent = String(act.args.agent);
      return { acts: [{ op: 'grant', args: { list, agent, access: before.access } }], record: null, mark: null, access: { list, agent, access: set }, asks: false };
    }
    default: return null;
  }
}

/** The one act that takes `act` back, where it is one act and asks nothing (the page's offer). */
export function undoOf(act: Act, answer: Pick<Answer, 'ok' | 'data'>, before: Before = null): Act | null {
  const back = undoing(act, answer, before);
  return back && back.acts.length === 1 && !back.asks ? back.acts[0]! : null;
}
