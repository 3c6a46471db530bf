/**
 * A record's life: add, edit, move, approve (and withdraw), archive. The gate rule lives
 * here: a record is at or past a list's first gate only once a person approved it, and an
 * agent can never make that so — nor keep an approval past a change of what was approved.
 */
import { findList, findRecord, isPerson, notArchived, recordRow, type Found } from './access.js';
import { approvalMark } from './approval-mark.js';
import { iso, type Context } from './context.js';
import { withLabels } from './labels.js';
import { forChange } from './leases.js';
import { childrenFirst, parentBeforeAdding, setParent } from './children.js';
import { afterMove } from './needs.js';
import { recordOf } from './rows.js';
import { agentNamed } from './sides.js';
import type { AddInput, EditInput } from './store.js';
import { editedLater, reindexLater } from './text-index.js';
import type { EditedRecord, List, Moved, RecordSummary, Who, Withdrawal } from './types.js';
import {
  beforeGate, cleanNote, cleanOwners, cleanTitle, dueOf, fieldChanges, findState, firstGate, pastGate,
} from './values.js';
import { refusal } from './words/index.js';

const fresh = async (ctx: Context, id: number): Promise<RecordSummary> => recordOf((await recordRow(ctx, id))!);

const gateName = (list: List): string => firstGate(list)?.name ?? '';

export async function add(ctx: Context, listRef: string, input: AddInput, who: Who): Promise<RecordSummary> {
  const { list } = await findList(ctx, listRef, who, 'write');
  if (list.archived) {
    throw refusal('archivedList', [list.title, String(list.id)]);
  }
  const title = cleanTitle(input.title);
  const state = input.state !== undefined && String(input.state).trim() !== '' ? findState(list, input.state) : list.states[0]!;
  const approving = pastGate(list, state.id);
  if (approving && !isPerson(who)) {
    throw refusal('cannotStartPastGate', [state.name, gateName(list), list.states[0]!.name]);
  }
  const named = (name: string) => agentNamed(ctx, name);
  const fields = Object.fromEntries(
    Object.entries(await fieldChanges(list, withLabels(list, input.fields, input.labels) ?? {}, who, named)).filter(([, v]) => v !== ''),
  );
  const owners = await cleanOwners(input.owners ?? [], who, named);
  const due = dueOf(input.due ?? '');
  const note = input.note !== undefined && String(input.note).trim() !== '' ? cleanNote(input.note) : undefined;
  if (input.parent !== undefined) await parentBeforeAdding(ctx, input.parent, who);
  const at = iso(ctx.now());
  const id = Number((await ctx.q.value(`INSERT INTO records (list, title, state, approved_by, approved_at, fields, owners,
      due, due_at, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, [list.id, title, state.id, approving ? JSON.stringify(who) : null, approving ? at : null,
    JSON.stringify(fields), JSON.stringify(owners),
    due.kind === 'due' ? due.due : null, due.kind === 'due' ? due.at : null, at, at,])));
  let noteId: number | undefined;
  if (note !== undefined) {
    noteId = Number(await ctx.q.value('INSERT INTO notes (record, at, by, text) VALUES (?, ?, ?, ?) RETURNING id', [id, at, JSON.stringify(who), note]));
  }
  const under = input.parent !== undefined ? await setParent(ctx, id, input.parent, who) : null;
  reindexLater(ctx, id, true);
  const change: Record<string, unknown> = { title, state: state.id };
  if (under?.[1]) change.parent = under[1];
  if (approving) change.approved = true;
  if (Object.keys(fields).length) change.fields = fields;
  if (owners.length) change.owners = owners;
  if (due.kind === 'due') change.due = due.due;
  if (noteId !== undefined) change.note = noteId;
  await ctx.log(who, 'add', list.id, id, change);
  return fresh(ctx, id);
}

export async function edit(ctx: Context, ref: number | string, input: EditInput, who: Who): Promise<EditedRecord> {
  const found = await forChange(ctx, ref, who);
  notArchived(found);
  const { record, list } = found;
  const named = (name: string) => agentNamed(ctx, name);
  const change: Record<string, unknown> = {};
  let title = record.title;
  if (input.title !== undefined) {
    title = cleanTitle(input.title);
    if (title !== record.title) change.title = [record.title, title];
  }
  const fields = { ...record.fields };
  const given = withLabels(list, input.fields, input.labels);
  if (given) {
    const changed: Record<string, [string | null, string | null]> = {};
    for (const [id, value] of Object.entries(await fieldChanges(list, given, who, named, record.fields))) {
      const old = fields[id] ?? null;
      if ((old ?? '') === value) continue;
      changed[id] = [old, value === '' ? null : value];
      if (value === '') delete fields[id];
      else fields[id] = value;
    }
    if (Object.keys(changed).length) change.fields = changed;
  }
  let owners = record.owners;
  if (input.owners !== undefined) {
    owners = await cleanOwners(input.owners, who, named);
    if (JSON.stringify(owners) !== JSON.stringify(record.owners)) change.owners = [record.owners, owners];
  }
  let due = { due: record.due, at: found.row.due_at };
  if (input.due !== undefined) {
    const reading = dueOf(input.due);
    due = reading.kind === 'due' ? { due: reading.due, at: reading.at } : { due: null, at: null };
    if (due.due !== record.due) change.due = [record.due, due.due];
  }
  if (input.parent !== undefined) {
    const under = await setParent(ctx, record.id, input.parent, who);
    if (under) change.parent = under;
  }
  const changed = (['title', 'due', 'owners', 'fields', 'parent'] as const).filter((k) => change[k] !== undefined);
  if (changed.length === 0) return { ...record, changed };
  (await ctx.q.run(`UPDATE records SET title = ?, fields = ?, owners = ?, due = ?, due_at = ?,
      due_told = CASE WHEN ? THEN 0 ELSE due_told END, updated = ? WHERE id = ?`, [title, JSON.stringify(fields), JSON.stringify(owners), due.due, due.at,
      change.due !== undefined ? 1 : 0, iso(ctx.now()), record.id]));
  if (change.title !== undefined || change.fields !== undefined) editedLater(ctx, record.id, title, fields);
  await ctx.log(who, 'edit', list.id, record.id, change);
  const withdrawn = await staleApproval(ctx, found, change, who);
  return { ...(await fresh(ctx, record.id)), changed, ...(withdrawn ? { withdrawn } : {}) };
}

/**
 * What a person approved is the record's title and fields: an agent's change to either
 * withdraws the approval, as a code host dismisses a review when new commits come, and puts the
 * record back before the gate if it was past it. Owners, due date, notes and attachments are
 * not what was approved; a person's own change keeps the approval.
 */
async function staleApproval(ctx: Context, found: Found, change: Record<string, unknown>, who: Who): Promise<Withdrawal | undefined> {
  const { record, list } = found;
  const approval = record.approved;
  if (!approval || isPerson(who) || (change.title === undefined && change.fields === undefined)) return undefined;
  const withdrawal: Withdrawal = {
    approval,
    title: change.title !== undefined,
    fields: Object.keys((change.fields ?? {}) as Record<string, unknown>),
  };
  const back = pastGate(list, record.state) ? beforeGate(list) : undefined;
  if (back) Object.assign(withdrawal, { from: record.state, to: back.id });
  (await ctx.q.run('UPDATE records SET approved_by = NULL, approved_at = NULL, state = ? WHERE id = ?', [back?.id ?? record.state, record.id]));
  await ctx.log(who, 'withdraw', list.id, record.id, {
    approved: false,
    ...(withdrawal.title ? { title: true } : {}),
    ...(withdrawal.fields.length ? { fields: withdrawal.fields } : {}),
    ...(back ? { from: record.state, to: back.id } : {}),
  });
  return withdrawal;
}

/**
 * An approval is of what the person read: refused when the record's title or fields say otherwise
 * now (an agent's edit between the look and the key). The command with the current mark is said,
 * for a person at a shell: read it first (get), then approve what was read.
 */
function notChanged(record: RecordSummary, seen: string): void {
  const now = approvalMark(record.title, record.fields);
  if (seen === now) return;
  throw refusal('changedSinceSeen', [record.id, now]);
}

/**
 * A move from where the record was shown: when the mark names a state (the place it was seen in)
 * and the record stands elsewhere now, the step is refused, approving or not; a step meant for the
 * record as it was would otherwise take it on from where someone else put it.
 */
function notMoved(record: RecordSummary, list: List, seen: string): void {
  const shown = list.states.find((s) => s.id !== record.state && approvalMark(record.title, record.fields, s.id) === seen);
  if (!shown) return;
  const now = list.states.find((s) => s.id === record.state)?.name ?? record.state;
  throw refusal('movedSinceSeen', [record.id, shown.name, now]);
}

export async function move(ctx: Context, ref: number | string, stateRef: string, who: Who, seen?: string): Promise<Moved> {
  const found = await forChange(ctx, ref, who);
  notArchived(found);
  const { record, list } = found;
  const state = findState(list, stateRef);
  // Already there (asked twice, or someone put it there first): nothing moves, and the answer says so.
  if (state.id === record.state) return { ...record, stayed: true };
  const approving = pastGate(list, state.id) && !record.approved;
  if (approving && !isPerson(who)) {
    throw refusal('notApproved', [record.id, gateName(list)]);
  }
  if (seen !== undefined) notMoved(record, list, seen);
  await childrenFirst(ctx, record.id, state.id, list.states);
  if (approving && seen !== undefined && seen !== approvalMark(record.title, record.fields, record.state)) notChanged(record, seen);
  const at = iso(ctx.now());
  if (approving) {
    (await ctx.q.run('UPDATE records SET state = ?, approved_by = ?, approved_at = ?, updated = ? WHERE id = ?', [state.id, JSON.stringify(who), at, at, record.id]));
  } else {
    (await ctx.q.run('UPDATE records SET state = ?, updated = ? WHERE id = ?', [state.id, at, record.id]));
  }
  await ctx.log(who, 'move', list.id, record.id, approving ? { from: record.state, to: state.id, approved: true } : { from: record.state, to: state.id });
  await afterMove(ctx, record.id, record.state, who);
  return fresh(ctx, record.id);
}

export async function approve(ctx: Context, ref: number | string, yes: boolean, who: Who, seen?: string): Promise<RecordSummary> {
  const found = await findRecord(ctx, ref, who, 'write');
  notArchived(found);
  const { record, list } = found;
  const at = iso(ctx.now());
  if (yes && seen !== undefined) notChanged(record, seen);
  if (yes) {
    if (record.approved) return record;
    (await ctx.q.run('UPDATE records SET approved_by = ?, approved_at = ?, updated = ? WHERE id = ?', [JSON.stringify(who), at, at, record.id]));
    await ctx.log(who, 'approve', list.id, record.id, { approved: true });
    return fresh(ctx, record.id);
  }
  const back = pastGate(list, record.state) ? beforeGate(list) : undefined;
  if (!record.approved && !back) return record;
  const state = back?.id ?? record.state;
  (await ctx.q.run('UPDATE records SET approved_by = NULL, approved_at = NULL, state = ?, updated = ? WHERE id = ?', [state, at, record.id]));
  await ctx.log(who, 'approve', list.id, record.id,
    back ? { approved: false, from: record.state, to: state } : { approved: false });
  return fresh(ctx, record.id);
}

export async function archive(ctx: Context, ref: number | string, archived: boolean, who: Who): Promise<RecordSummary> {
  const { record, list } = await forChange(ctx, ref, who);
  if (record.archived === archived) {
    const id = record.id;
    throw archived ? refusal('archivedAlready', [id]) : refusal('notArchived', [id]);
  }
  (await ctx.q.run('UPDATE records SET archived = ?, updated = ? WHERE id = ?', [archived ? 1 : 0, iso(ctx.now()), record.id]));
  await ctx.log(who, archived ? 'archive' : 'restore', list.id, record.id, { archived });
  return fresh(ctx, record.id);
}
