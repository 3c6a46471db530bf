/**
 * Which of a person's changes are offered back rather than asked about first, and the one act that
 * takes each back, from what the keeper answered: a thing detached is attached again, a list or a
 * record archived is restored, a folder removed is registered again under its name. The screen and
 * the web page make the same offer from this one table. Pure: it reads the answer, never the store.
 */
import type { Answer } from '../keeper/protocol.js';
import type { Attachment, Side } from '../store/index.js';
import type { Act } from './form.js';

/** How long a change may be taken back with `u`. */
export const UNDO_MS = 10_000;

/** The act that takes `one` back, from what the keeper answered; null when there is none. */
export function undoOf(one: Act, answer: Pick<Answer, 'ok' | 'data'>): Act | null {
  if (!answer.ok) return null;
  switch (one.op) {
    case 'detach': {
      const gone = (answer.data as { record: number; attachment: Attachment } | undefined | null);
      if (!gone?.attachment) return null;
      const { kind, ref, title } = gone.attachment;
      return { op: 'attach', args: { id: gone.record, kind, ref, ...(title ? { title } : {}) } };
    }
    case 'archive-list': return one.args.restore ? null : { op: 'archive-list', args: { list: one.args.list, restore: true } };
    case 'side-remove': {
      const side = answer.data as Side | undefined | null;
      return side ? { op: 'side-add', args: { dir: side.dir, name: side.name } } : null;
    }
    case 'archive': return one.args.restore ? null : { op: 'restore', args: { id: one.args.id } };
    default: return null;
  }
}
