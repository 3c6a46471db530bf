/**
 * A binder read whole for its export, a person's alone: the lists named (or all of them) with
 * their access and history, then every record of them with its notes, attachments, needs, parent
 * and history, in number order, a page of records at a time so that a binder of any size is read
 * in a few queries per thousand records. It reads only, and hands each piece to the writer as
 * soon as it is whole.
 */
import { findList } from './access.js';
import type { Context } from './context.js';
import type { ListOut, MovingRow, Outgoing, RecordOut } from './exchange-types.js';
import { accessOf, listOf, type AttachmentRow, type ListRow, type LogRowRaw, type NoteRow, type RecordRow } from './rows.js';
import type { Who } from './types.js';

const PAGE = 1000;

const rowOf = (r: LogRowRaw): MovingRow =>
  ({ at: r.at, by: JSON.parse(r.by) as Who, op: r.op, change: r.change === null ? null : JSON.parse(r.change) as unknown });

/** Rows of `rows` grouped by their record, in the order read. */
function byRecord<T extends { record: number }>(rows: T[]): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const row of rows) {
    const kept = out.get(row.record);
    if (kept) kept.push(row);
    else out.set(row.record, [row]);
  }
  return out;
}

/** The lists to export: those named (by id or title), or every list, archived ones too. */
async function listsOf(ctx: Context, refs: readonly string[] | undefined, who: Who): Promise<ListRow[]> {
  if (!refs || refs.length === 0) return (await ctx.q.all('SELECT * FROM lists ORDER BY position, title')) as ListRow[];
  const ids = new Set<string>();
  for (const ref of refs) ids.add((await findList(ctx, ref, who, 'read')).list.id);
  const rows: ListRow[] = [];
  for (const id of ids) rows.push((await ctx.q.get<ListRow>('SELECT * FROM lists WHERE id = ?', [id]))!);
  return rows;
}

export async function exportBinder(
  ctx: Context, refs: readonly string[] | undefined, who: Who, give: (piece: Outgoing) => void,
): Promise<{ lists: number; records: number }> {
  const lists = await listsOf(ctx, refs, who);
  const ids = lists.map((l) => l.id);
  const inLists = `list IN (${ids.map(() => '?').join(', ') || 'NULL'})`;
  const total = (await ctx.q.value<number>(`SELECT count(*) FROM records WHERE ${inLists}`, ids))!;
  give({ kind: 'begin', lists: lists.length, records: total });

  for (const row of lists) {
    const list = listOf(row, await accessOf(ctx.q, row.id));
    const out: ListOut = {
      id: list.id, title: list.title, states: list.states, fields: list.fields, view: list.view,
      archived: list.archived, position: row.position, access: list.access, created: list.created, updated: list.updated,
      ...(list.childrenFirst ? { childrenFirst: true } : {}),
      history: (await ctx.q.all<LogRowRaw>('SELECT * FROM log WHERE list = ? AND record IS NULL ORDER BY id', [row.id])).map(rowOf),
    };
    give({ kind: 'list', list: out });
  }

  let after = 0;
  let count = 0;
  for (;;) {
    const rows = await ctx.q.all<RecordRow>(`SELECT * FROM records WHERE ${inLists} AND id > ? ORDER BY id LIMIT ${PAGE}`, [...ids, after]);
    if (rows.length === 0) break;
    const from = rows[0]!.id;
    const to = rows[rows.length - 1]!.id;
    const between = [from, to];
    const notesOf = byRecord(await ctx.q.all<NoteRow>('SELECT * FROM notes WHERE record BETWEEN ? AND ? ORDER BY record, id', between));
    const attachedOf = byRecord(await ctx.q.all<AttachmentRow>('SELECT * FROM attachments WHERE record BETWEEN ? AND ? ORDER BY record, id', between));
    const needsOf = byRecord(await ctx.q.all<{ record: number; needed: number }>('SELECT record, needed FROM needs WHERE record BETWEEN ? AND ? ORDER BY record, needed', between));
    const parentOf = new Map((await ctx.q.all<{ record: number; parent: number }>('SELECT record, parent FROM parents WHERE record BETWEEN ? AND ?', between))
      .map((p) => [Number(p.record), Number(p.parent)]));
    const historyOf = byRecord(await ctx.q.all<LogRowRaw & { record: number }>('SELECT * FROM log WHERE record BETWEEN ? AND ? ORDER BY record, id', between));
    for (const r of rows) {
      const record: RecordOut = {
        id: r.id, list: r.list, title: r.title, state: r.state,
        approved: r.approved_by && r.approved_at ? { by: JSON.parse(r.approved_by) as Who, at: r.approved_at } : null,
        fields: JSON.parse(r.fields) as Record<string, string>,
        owners: JSON.parse(r.owners) as string[],
        due: r.due, dueTold: r.due_told === 1, archived: r.archived === 1,
        ...(r.lease_by && r.lease_until != null ? { lease: { by: JSON.parse(r.lease_by) as Who, until: new Date(r.lease_until).toISOString() } } : {}),
        created: r.created, updated: r.updated,
        notes: (notesOf.get(r.id) ?? []).map((n) => ({ id: n.id, at: n.at, by: JSON.parse(n.by) as Who, text: n.text, edited: n.edited === 1 })),
        attachments: (attachedOf.get(r.id) ?? []).map((a) => ({ id: a.id, kind: a.kind, ref: a.ref, title: a.title, at: a.at, by: JSON.parse(a.by) as Who })),
        needs: (needsOf.get(r.id) ?? []).map((n) => n.needed),
        ...(parentOf.has(r.id) ? { parent: parentOf.get(r.id)! } : {}),
        history: (historyOf.get(r.id) ?? []).map(rowOf),
      };
      give({ kind: 'record', record });
      count++;
    }
    after = to;
  }
  return { lists: lists.length, records: count };
}
