/**
 * The commands about a record: approve or withdraw, move, add, edit, note, attach and detach,
 * archive, delete, take a claim away. Each says whether it was one.
 */
import { approvalMark, type RecordFull } from '../../store/index.js';
import { safe } from '../../person/format.js';
import { addForm, attachForm, confirm, deleteParentPick, editForm, editNoteForm, needsForm, noteForm, pick } from '../../person/form.js';
import type { Command } from '../../person/keymap.js';
import type { CommandScope } from './command-scope.js';

export function recordCommand(command: Command, scope: CommandScope): boolean {
  const { data, context, dispatch, say, act, opened, list, part, needRecord, needList, full, view, undoable } = scope;
  const { person, words, now } = scope.binder;
  switch (command) {
    case 'approve': {
      const r = needRecord();
      if (!r) return true;
      // An approval withdrawn is asked about first; an approval is of what the screen shows (refused if an agent changed it since).
      if (r.approved !== null) dispatch({ type: 'dialog', dialog: confirm(words.dialog.withdraw(r.id, safe(r.title)), { do: 'withdraw', id: r.id }) });
      else void act({ op: 'approve', args: { id: r.id, withdraw: false, seen: approvalMark(r.title, r.fields) } });
      return true;
    }
    case 'moveBack':
    case 'moveOn': {
      const r = needRecord();
      if (!r || !list) return true;
      const at = list.states.findIndex((s) => s.id === r.state);
      const to = list.states[at + (command === 'moveOn' ? 1 : -1)];
      if (!to) { say(command === 'moveOn' ? words.say.lastState : words.say.firstState, 'info'); return true; }
      // The step is from the state shown, with the mark of what the frame showed (past the gate, an approval of that).
      void full(r.id).then((fresh) => {
        if (!fresh) return;
        if (fresh.state !== r.state) say(words.say.notWhereShown(r.id, safe(list.states[at]?.name ?? r.state), safe(list.states.find((s) => s.id === fresh.state)?.name ?? fresh.state)), 'refused');
        else void act({ op: 'move', args: { id: r.id, state: to.id, seen: approvalMark(r.title, r.fields, r.state) } });
      });
      return true;
    }
    case 'movePick': {
      const r = needRecord();
      if (r && list) dispatch({ type: 'dialog', dialog: pick(words.dialog.pickState, list.states.map((s) => ({ value: s.id, label: safe(s.name) })), { do: 'move', id: r.id }, r.state) });
      return true;
    }
    case 'add': {
      if (!needList()) return true;
      const w = data.window?.ok ? data.window.value : null;
      const column = w?.kind === 'board' ? w.columns[Math.min(data.column, w.columns.length - 1)]?.state.id : undefined;
      dispatch({ type: 'dialog', dialog: addForm(list!, column, words, now()) });
      return true;
    }
    case 'edit': {
      const r = needRecord();
      if (!r || !list) return true;
      // The form holds the record's parent too: the one opened says it, else it is read.
      if (context === 'record' && opened) dispatch({ type: 'dialog', dialog: editForm(r as RecordFull, list, words, now(), opened.parent?.id) });
      else {
        void view(r.id).then((whole) => {
          if (whole) dispatch({ type: 'dialog', dialog: editForm(whole.record, list, words, now(), whole.parent?.id) });
        });
      }
      return true;
    }
    case 'note': {
      const r = needRecord();
      if (r) dispatch({ type: 'dialog', dialog: noteForm(r.id, words) });
      return true;
    }
    case 'editNote': {
      if (part?.kind !== 'note' || !opened) { say(words.say.noNote, 'info'); return true; }
      if (part.author !== person.id) { say(words.say.notYourNote, 'info'); return true; }
      const note = opened.record.notes.find((n) => n.id === part.id);
      if (note) dispatch({ type: 'dialog', dialog: editNoteForm(opened.record.id, note.id, note.text, words) });
      return true;
    }
    case 'attach': {
      const r = needRecord();
      if (r) dispatch({ type: 'dialog', dialog: attachForm(r.id, words) });
      return true;
    }
    case 'needs': {
      const r = needRecord();
      // What it needs now, as the record opened shows it: the form says which to add and which to take away.
      if (r && opened) dispatch({ type: 'dialog', dialog: needsForm(r.id, (opened.needs ?? []).map((l) => l.id), words) });
      return true;
    }
    case 'detach':
      if (part?.kind !== 'attached' || !opened) { say(words.say.noAttachment, 'info'); return true; }
      undoable({ op: 'detach', args: { id: opened.record.id, what: String(part.id) } });
      return true;
    case 'archive': {
      const r = needRecord();
      if (!r) return true;
      if (r.archived) void act({ op: 'restore', args: { id: r.id } });
      else undoable({ op: 'archive', args: { id: r.id } });
      return true;
    }
    case 'delete': {
      const r = needRecord();
      if (!r) return true;
      const notes = typeof r.notes === 'number' ? r.notes : r.notes.length;
      const attached = typeof r.attached === 'number' ? r.attached : r.attached.length;
      // One with records under it asks what becomes of them (the store's delete takes the answer),
      // read now: a child added since the frame was drawn is asked about too.
      void view(r.id).then((fresh) => {
        if (!fresh) return;
        const children = fresh.children ?? [];
        dispatch({ type: 'dialog', dialog: children.length
          ? deleteParentPick(r.id, safe(r.title), children.map((c) => c.id), notes, attached, words)
          : confirm(words.dialog.deleteRecord(r.id, safe(r.title), notes, attached), { do: 'delete', id: r.id }) });
      });
      return true;
    }
    case 'release': {
      const r = needRecord();
      if (!r) return true;
      // A claim taken away cannot be given back (only its holder can take it again): asked first.
      if (r.lease && r.lease.by.id !== person.id) {
        const holder = data.nameOf(r.lease.by.id);
        dispatch({ type: 'dialog', dialog: confirm(words.dialog.takeAway(r.id, safe(r.title), holder), { do: 'release', id: r.id, holder }) });
      } else void act({ op: 'release', args: { id: r.id } });
      return true;
    }
    default:
      return false;
  }
}
