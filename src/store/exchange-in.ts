/**
 * An import, a person's alone, in the caller's one transaction: every record a file brings is
 * checked by the binder's own rules (title, state, gate, fields, owners, due date, notes,
 * attachments) and written with its notes, attachments, needs, parent and — from Binder's own export —
 * its approval and history kept whole. A record of another tool is never approved unless the
 * person asks for it. The first rule broken refuses the whole import, naming the line.
 */
import { iso, type Context } from './context.js';
import type { ImportOptions, ImportPlan, Imported, IncomingRecord, MovingRow } from './exchange-types.js';
import { atLine, bringLists, cleanTime, cleanWho, intoList, keepRows, numbering, onLine } from './exchange-lists.js';
import { KINDS } from './record-parts.js';
import { agentNamed } from './sides.js';
import { reindexLater } from './text-index.js';
import type { AttachKind, List, State, Who } from './types.js';
import { cleanNote, cleanOwners, cleanTitle, dueOf, fieldValue, findField, findState, LIMITS, pastGate } from './values.js';
import { refusal } from './words/index.js';

/** Where a foreign record's place puts it: the first state, the first one worked in, the last. */
function placed(list: List, place: IncomingRecord['place']): State {
  const states = list.states;
  if (place === 'last') return states[states.length - 1]!;
  if (place === 'doing') {
    const gate = states.findIndex((s) => s.gate);
    const from = Math.max(1, gate + 1);
    return states.slice(from, -1).find((s) => !s.gate) ?? states[0]!;
  }
  return states[0]!;
}

const numberOf = async (ctx: Context, sql: string): Promise<number> => ((await ctx.q.value<number | null>(sql)) ?? 0);

/** The record numbers `ref` (`#12`) names in the file, as numbered here; the ref itself when none. */
const recordRef = (ref: string, idOf: Map<string, number>): string => {
  const m = /^#?(\d+)$/.exec(ref.trim());
  const mapped = m ? idOf.get(m[1]!) : undefined;
  return mapped !== undefined ? `#${mapped}` : ref;
};

/** A history row's change with the numbers it names renumbered as the import did. */
function remapChange(row: MovingRow, idOf: Map<string, number>, notes: Map<number, number>, attached: Map<number, number>): unknown {
  const change = row.change;
  if (!change || typeof change !== 'object' || Array.isArray(change)) return change;
  const c = { ...(change as Record<string, unknown>) };
  if (typeof c.note === 'number') c.note = notes.get(c.note) ?? c.note;
  if (typeof c.attachment === 'number') c.attachment = attached.get(c.attachment) ?? c.attachment;
  if (c.kind === 'record' && typeof c.ref === 'string') c.ref = recordRef(c.ref, idOf);
  const record = (n: unknown): unknown => (typeof n === 'number' ? idOf.get(String(n)) ?? n : n);
  if (row.op === 'needs') for (const key of ['add', 'remove']) if (Array.isArray(c[key])) c[key] = (c[key] as unknown[]).map(record);
  if (row.op === 'unblocked') c.need = record(c.need);
  if ((row.op === 'add' || row.op === 'edit') && c.parent !== undefined) c.parent = Array.isArray(c.parent) ? c.parent.map(record) : record(c.parent);
  return c;
}

/**
 * Puts each record under the one of the file it names as its parent, as numbered here. A parent
 * not in the file (or the record itself) is left out; a loop among the file's parents is refused
 * by the line of its first record, as the binder refuses one made by hand.
 */
async function bringParents(ctx: Context, plan: ImportPlan, idOf: Map<string, number>): Promise<number> {
  const parentOf = new Map(plan.records.filter((r) => r.parent !== undefined && r.parent !== r.key && idOf.has(r.parent)).map((r) => [r.key, r.parent!]));
  for (const r of plan.records) {
    const chain = [r.key];
    for (let at = parentOf.get(r.key); at !== undefined; at = parentOf.get(at)) {
      if (at === r.key) throw atLine(r.line, refusal('parentLoop', [idOf.get(r.key)!, idOf.get(parentOf.get(r.key)!)!, [...chain.slice(1), at].map((k) => `#${idOf.get(k)!}`).join(' under ')]));
      if (chain.includes(at)) break;
      chain.push(at);
    }
  }
  for (const [key, parent] of parentOf) await ctx.q.run('INSERT INTO parents (record, parent) VALUES (?, ?)', [idOf.get(key)!, idOf.get(parent)!]);
  return parentOf.size;
}

/** A circle among the needs the file brings (none can pass through the binder's own records). */
function circleIn(plan: ImportPlan, keys: Map<string, number>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (key: string): string[] | null => {
    state.set(key, 'open');
    path.push(key);
    for (const next of plan.records[keys.get(key)!]!.needs) {
      if (!keys.has(next) || next === key) continue;
      if (state.get(next) === 'open') return [...path.slice(path.indexOf(next)), next];
      if (state.get(next) === undefined) {
        const found = visit(next);
        if (found) return found;
      }
    }
    path.pop();
    state.set(key, 'done');
    return null;
  };
  for (const r of plan.records) {
    if (state.get(r.key) !== undefined) continue;
    const found = visit(r.key);
    if (found) return found;
  }
  return null;
}

export async function importBinder(ctx: Context, plan: ImportPlan, who: Who, options: ImportOptions = {}): Promise<Imported> {
  const whole = plan.format === 'binder';
  const at = iso(ctx.now());
  const now = ctx.now();
  const named = (name: string) => agentNamed(ctx, name);
  const made: Imported['lists'] = [];
  let into: List | null = null;
  let lists = new Map<string, List>();
  if (whole) {
    if (options.into !== undefined) {
      throw refusal('importIntoBinderExport', []);
    }
    lists = await bringLists(ctx, plan.lists, made);
  } else {
    into = await intoList(ctx, options.into, who, plan);
  }

  const keys = new Map<string, number>();
  plan.records.forEach((r, i) => {
    const first = keys.get(r.key);
    if (first !== undefined) {
      throw atLine(r.line, refusal('importKeyTwice', [r.key.slice(0, 40), plan.records[first]!.line]));
    }
    keys.set(r.key, i);
  });
  const circle = circleIn(plan, keys);
  if (circle) {
    const line = plan.records[keys.get(circle[0]!)!]!.line;
    throw atLine(line, refusal('importNeedsCircle', [circle]));
  }

  // Numbers: a record's own where never given here (a number is never given twice, even after a delete).
  const used = Math.max(await numberOf(ctx, 'SELECT max(id) FROM records'), await numberOf(ctx, 'SELECT max(record) FROM log'));
  const ids = numbering(used, plan.records.map((r) => (whole && /^\d+$/.test(r.key) ? Number(r.key) : undefined)));
  const idOf = new Map(plan.records.map((r, i) => [r.key, ids[i]!]));
  const noteIds = numbering(await numberOf(ctx, 'SELECT max(id) FROM notes'), plan.records.flatMap((r) => r.notes.map((n) => (whole ? n.id : undefined))));
  const attachmentIds = numbering(await numberOf(ctx, 'SELECT max(id) FROM attachments'), plan.records.flatMap((r) => r.attachments.map((a) => (whole ? a.id : undefined))));
  const noteMap = new Map<number, number>();
  const attachmentMap = new Map<number, number>();

  const by = JSON.stringify(who);
  let noteAt = 0;
  let attachmentAt = 0;
  for (const [i, r] of plan.records.entries()) await onLine(r.line, async () => {
    const list = whole ? lists.get(r.list ?? '') : into!;
    if (!list) throw refusal('importListMissing', [String(r.list).slice(0, 40)]);
    const id = ids[i]!;
    const title = cleanTitle(r.title);
    // Binder's own export names states and fields by id (a renamed one keeps its id); others by name.
    const state = r.state !== undefined && r.state !== ''
      ? (whole ? list.states.find((s) => s.id === r.state) : undefined) ?? findState(list, r.state)
      : placed(list, r.place);
    const approval = whole
      ? (r.approved ? { by: cleanWho(r.approved.by), at: cleanTime(r.approved.at, at) } : null)
      : (options.approved ? { by: who, at } : null);
    if (pastGate(list, state.id) && !approval) {
      const gate = list.states.find((s) => s.gate)!;
      throw refusal('importPastGate', [state.name, gate.name, list.title]);
    }
    const fields: Record<string, string> = {};
    for (const [ref, given] of Object.entries(r.fields)) {
      const field = (whole ? list.fields.find((f) => f.id === ref) : undefined) ?? findField(list, ref);
      const value = await fieldValue(field, given, who, named);
      if (value !== '') fields[field.id] = value;
    }
    const owners = await cleanOwners(r.owners, who, named);
    const due = dueOf(r.due ?? '');
    const created = cleanTime(r.created, at);
    const dueTold = whole ? r.dueTold === true : due.kind === 'due' && due.at <= now;
    await ctx.q.run(`INSERT INTO records (id, list, title, state, approved_by, approved_at, fields, owners,
      due, due_at, due_told, archived, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [id, list.id, title, state.id, approval ? JSON.stringify(approval.by) : null, approval?.at ?? null,
      JSON.stringify(fields), JSON.stringify(owners), due.kind === 'due' ? due.due : null, due.kind === 'due' ? due.at : null,
      dueTold ? 1 : 0, r.archived ? 1 : 0, created, cleanTime(r.updated, created)]);
    for (const n of r.notes) {
      const noteId = noteIds[noteAt++]!;
      if (n.id !== undefined) noteMap.set(n.id, noteId);
      await ctx.q.run('INSERT INTO notes (id, record, at, by, text, edited) VALUES (?, ?, ?, ?, ?, ?)',
        [noteId, id, cleanTime(n.at, at), JSON.stringify(n.by ? cleanWho(n.by) : who), cleanNote(n.text), n.edited ? 1 : 0]);
    }
    for (const a of r.attachments) {
      const attachmentId = attachmentIds[attachmentAt++]!;
      if (a.id !== undefined) attachmentMap.set(a.id, attachmentId);
      if (!KINDS.includes(a.kind as AttachKind)) {
        throw refusal('importNoAttachKind', [a.kind.slice(0, 40), KINDS.join(', ')]);
      }
      const target = a.record !== undefined ? idOf.get(a.record) : undefined;
      const ref = a.kind === 'record' ? (target !== undefined ? `#${target}` : recordRef(a.ref, idOf)) : a.ref.trim();
      if (!ref || [...ref].length > LIMITS.ref) {
        throw refusal('importRefLength', [LIMITS.ref]);
      }
      const titled = a.title !== undefined && a.title.trim() !== '' ? cleanTitle(a.title, 'titleOfAnAttachment') : '';
      await ctx.q.run('INSERT INTO attachments (id, record, kind, ref, title, at, by) VALUES (?, ?, ?, ?, ?, ?, ?)',
        [attachmentId, id, a.kind, ref, titled, cleanTime(a.at, at), JSON.stringify(a.by ? cleanWho(a.by) : who)]);
    }
    if (r.history) await keepRows(ctx, r.history, list.id, id, (row) => remapChange(row, idOf, noteMap, attachmentMap));
    if (r.origin) {
      await ctx.q.run("INSERT INTO log (at, by, op, list, record, change) VALUES (?, ?, 'import', ?, ?, ?)",
        [at, by, list.id, id, JSON.stringify({ from: r.origin.format, ref: r.origin.ref })]);
    }
    reindexLater(ctx, id, true);
    options.progress?.(i + 1, plan.records.length);
  });

  let needs = 0;
  let needsLeftOut = 0;
  for (const r of plan.records) {
    for (const key of r.needs) {
      const target = idOf.get(key);
      if (target === undefined || key === r.key) { needsLeftOut++; continue; }
      needs += (await ctx.q.run('INSERT INTO needs (record, needed) VALUES (?, ?) ON CONFLICT DO NOTHING', [idOf.get(r.key)!, target])).changes;
    }
  }
  const parents = await bringParents(ctx, plan, idOf);
  // Numbers given past those given here, never back (a number once given is never given again).
  for (const statement of ctx.q.dialect.idsGivenByHand(['records', 'notes', 'attachments'])) await ctx.q.get(statement);
  await ctx.log(who, 'import', into?.id ?? null, null, {
    format: plan.format, ...(options.file ? { file: options.file } : {}), lists: made.map((l) => l.id), records: plan.records.length,
  });
  return {
    lists: made, records: plan.records.length, renumbered: plan.records.filter((r, i) => whole && String(ids[i]) !== r.key).length,
    needs, needsLeftOut, parents, first: ids[0] ?? null, last: ids[ids.length - 1] ?? null,
    into: into?.id ?? null,
  };
}
