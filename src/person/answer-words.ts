/**
 * The screen's own sentence for an action the keeper did, in the screen's language: the keeper's
 * answer text is written for an agent's context window ("binder restore 12 brings it back"), and
 * in English. Pure: it reads the answer's data, never the store; every name in it is made safe.
 * A refusal is not said here: it stays the keeper's sentence.
 */
import type { List, Moved, Note, RecordSummary, Released, Side, Who } from '../store/index.js';
import { safe } from './format.js';
import type { Words } from './words.js';

/** A state's name in a list, for the words (the answer's record carries only its id). */
export type StateName = (list: string, state: string) => string;

type Args = Record<string, unknown>;

const idOf = (args: Args): number => Number(String(args.id ?? '').replace(/^#/, ''));

/** The sentence for a successful `op`, or null when the screen has none (the keeper's text is used). */
export function doneText(op: string, data: unknown, args: Args, words: Words, stateName: StateName, person: Who): string | null {
  if (data === null || typeof data !== 'object') return null;
  const d = words.done;
  const record = data as RecordSummary;
  const list = data as List;
  switch (op) {
    case 'add': return d.added(record.id, safe(stateName(record.list, record.state)));
    case 'edit': return d.changed(record.id);
    case 'move': return ((data as Moved).stayed ? d.alreadyIn : d.moved)(record.id, safe(stateName(record.list, record.state)));
    case 'note': return d.noted((data as { record: number }).record);
    case 'edit-note': return d.noteRewritten(idOf(args) || (data as Note).id);
    case 'attach': return d.attached((data as { record: number }).record);
    case 'detach': return d.detached((data as { record: number }).record);
    case 'archive': return record.archived ? d.archived(record.id) : d.restored(record.id);
    case 'restore': return d.restored(record.id);
    case 'approve': return record.approved ? d.approved(record.id) : d.withdrawn(record.id, safe(stateName(record.list, record.state)));
    case 'delete': {
      const gone = data as { id: number; children?: number[] };
      return gone.children?.length ? d.deletedWith(gone.id, gone.children.map((c) => `#${c}`).join(', ')) : d.deleted(gone.id);
    }
    case 'release': {
      const released = data as Released;
      if (!released.holder) return d.notTaken(released.record.id);
      return released.holder.id === person.id ? d.released(released.record.id) : d.takenAway(released.record.id, safe(released.holder.name));
    }
    case 'create-list': return d.listMade(safe(list.title));
    case 'edit-list': return d.listChanged(safe(list.title));
    case 'archive-list': return list.archived ? d.listArchived(safe(list.title)) : d.listRestored(safe(list.title));
    case 'delete-list': {
      const gone = data as { title: string; records: number };
      return d.listDeleted(safe(gone.title), gone.records);
    }
    case 'grant': {
      const granted = data as { list: List; access: 'read' | 'write' | null };
      return d.granted(safe(String(args.agent ?? '').replace(/^agent:/, '')), granted.access ?? 'none', safe(granted.list.title));
    }
    case 'side-add': {
      const side = data as Side;
      return (side.again ? d.sideBoundAgain : d.sideAdded)(safe(side.name), safe(side.dir));
    }
    case 'side-remove': {
      const side = data as Side;
      return d.sideRemoved(safe(side.name), safe(side.dir));
    }
    default:
      return null;
  }
}
