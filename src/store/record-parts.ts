/**
 * A record's notes and attachments, and the whole record as `get` shows it with its history.
 * A note is rewritten only by its author; nothing here reaches a record the asker cannot see.
 * Anyone who may change a record may note it, held or not: a note is how others reach its holder.
 */
import { findRecord, findRecordToChange, notArchived, recordNumber } from './access.js';
import { iso, type Context } from './context.js';
import { forChange } from './leases.js';
import { LINKS_OF_R, LINKS_ORDER, linksShown, recordLinks, undoneNeeds, type LinkRow } from './record-links.js';
import { RECORD_COLUMNS_BESIDE, attachmentOf, logOf, noteOf, recordOf, type AttachmentRow, type LogRowRaw, type NoteRow } from './rows.js';
import { notedLater, noteEditedLater } from './text-index.js';
import type { Attachment, AttachKind, Note, RecordPage, RecordView, Who } from './types.js';
import { cleanNote, cleanTitle, LIMITS } from './values.js';
import { refusal } from './words/index.js';
import type { Dialect } from './dialect/dialect.js';

export const KINDS: readonly AttachKind[] = ['message', 'file', 'asset', 'branch', 'link', 'record'];
const HISTORY = 200;
/** The limits a first page of notes or history is read with (the one asked for, rounded up). */
const PAGE_LIMITS = [10, 50, HISTORY, 1000] as const;

const touch = async (ctx: Context, id: number, at: string): Promise<void> => {
  ctx.q.later('UPDATE records SET updated = ? WHERE id = ?', [at, id]);
};

export async function note(ctx: Context, ref: number | string, text: string, who: Who): Promise<Note> {
  // The note's number is asked with the record's look: every write after is sent without waiting
  // (a server store: the look in one round trip, the writes with the commit in the next).
  const number = ctx.q.value<number>(ctx.q.dialect.nextId('notes'));
  number.catch(() => undefined);
  const found = await findRecordToChange(ctx, ref, who);
  notArchived(found);
  const clean = cleanNote(text);
  const at = iso(ctx.now());
  const id = await number;
  if (id === undefined) throw new Error(`no number for a note on #${found.record.id}`);
  const row: NoteRow = { id: Number(id), record: found.record.id, at, by: JSON.stringify(who), text: clean, edited: 0 };
  ctx.q.later('INSERT INTO notes (id, record, at, by, text) VALUES (?, ?, ?, ?, ?)', [row.id, row.record, at, row.by, clean]);
  await touch(ctx, found.record.id, at);
  notedLater(ctx, found.record.id, { id: row.id, text: clean });
  await ctx.log(who, 'note', found.list.id, found.record.id, { note: row.id });
  return noteOf(row);
}

export async function editNote(ctx: Context, ref: number | string, noteId: number, text: string, who: Who): Promise<Note> {
  const found = await findRecord(ctx, ref, who, 'write');
  notArchived(found);
  const id = found.record.id;
  const row = (await ctx.q.get('SELECT * FROM notes WHERE id = ? AND record = ?', [Number(noteId), id])) as NoteRow | undefined;
  if (!row) {
    throw refusal('noNote', [id, String(noteId)]);
  }
  const author = noteOf(row).by;
  if (author.id !== who.id) {
    throw refusal('notYourNote', [author.name, row.id]);
  }
  const clean = cleanNote(text);
  if (clean === row.text) return noteOf(row);
  const at = iso(ctx.now());
  (await ctx.q.run('UPDATE notes SET text = ?, edited = 1 WHERE id = ?', [clean, row.id]));
  await touch(ctx, id, at);
  noteEditedLater(ctx, id, row.id);
  await ctx.log(who, 'edit-note', found.list.id, id, { note: row.id });
  return noteOf((await ctx.q.get('SELECT * FROM notes WHERE id = ?', [row.id])) as NoteRow);
}

export async function attach(
  ctx: Context, ref: number | string, input: { kind: AttachKind; ref: string; title?: string }, who: Who,
): Promise<Attachment> {
  const found = await forChange(ctx, ref, who);
  notArchived(found);
  if (!KINDS.includes(input.kind)) {
    const shown = String(input.kind).slice(0, 40);
    throw refusal('noAttachKind', [shown, KINDS.join(', ')]);
  }
  let target = String(input.ref ?? '').trim();
  if (!target) {
    throw refusal('noRef', []);
  }
  if ([...target].length > LIMITS.ref) {
    throw refusal('refTooLong', [LIMITS.ref]);
  }
  if (input.kind === 'record') {
    const other = recordNumber(target);
    // Attaching names a record: it must be one the asker can see.
    await findRecord(ctx, other, who, 'read');
    target = `#${other}`;
  }
  const title = input.title !== undefined && String(input.title).trim() !== '' ? cleanTitle(input.title, 'titleOfAnAttachment') : '';
  const at = iso(ctx.now());
  const id = Number(await ctx.q.value('INSERT INTO attachments (record, kind, ref, title, at, by) VALUES (?, ?, ?, ?, ?, ?) RETURNING id', [found.record.id, input.kind, target, title, at, JSON.stringify(who)]));
  await touch(ctx, found.record.id, at);
  await ctx.log(who, 'attach', found.list.id, found.record.id, { attachment: id, kind: input.kind, ref: target });
  return attachmentOf((await ctx.q.get('SELECT * FROM attachments WHERE id = ?', [id])) as AttachmentRow);
}

export async function detach(ctx: Context, ref: number | string, what: string, who: Who): Promise<Attachment> {
  const found = await forChange(ctx, ref, who);
  notArchived(found);
  const id = found.record.id;
  const given = String(what).trim();
  const rows = (await ctx.q.all('SELECT * FROM attachments WHERE record = ? ORDER BY id DESC', [id])) as AttachmentRow[];
  const row = rows.find((r) => /^\d+$/.test(given) && r.id === Number(given))
    ?? rows.find((r) => r.ref === given)
    ?? rows.find((r) => r.kind === 'record' && /^#?\d+$/.test(given) && r.ref === `#${given.replace('#', '')}`);
  if (!row) {
    const shown = given.slice(0, 80);
    throw refusal('nothingAttached', [id, shown]);
  }
  (await ctx.q.run('DELETE FROM attachments WHERE id = ?', [row.id]));
  await touch(ctx, id, iso(ctx.now()));
  await ctx.log(who, 'detach', found.list.id, id, { attachment: row.id, kind: row.kind, ref: row.ref });
  return attachmentOf(row);
}

/** A whole number from 0, or `fallback` (-1: no limit) for anything else. */
const count = (given: number | undefined, fallback: number): number =>
  given !== undefined && Number.isSafeInteger(given) && given >= 0 ? given : fallback;

export async function get(ctx: Context, ref: number | string, who: Who, page: RecordPage = {}): Promise<RecordView> {
  const inline = inlineParts(ctx, page);
  // Where reads asked at once cost one round trip, the parts are asked with the record's look,
  // before the asker is known to see it: if not, they are thrown away unread by anyone.
  const ahead = !inline && ctx.q.dialect.readsAhead ? parts(ctx, recordNumber(ref), who, page, undefined, undefined) : undefined;
  ahead?.catch(() => undefined);
  const found = await findRecord(ctx, ref, who, 'read', inline?.columns, inline ? RECORD_COLUMNS_BESIDE : undefined);
  const { list, row } = found;
  const offset = count(page.offset, 0);
  // The record's row counted its notes and attachments in the same snapshot: none is not looked for
  // where the parts are read apart (most records have no attachment).
  const noteCount = row.note_count ?? await countOf(ctx, 'notes', found.record.id);
  const [noteRows, logRows, attachRows, links, logCount] = inline ? await inline.read(ctx, found.also!, who)
    : [...await (ahead ?? parts(ctx, found.record.id, who, page, noteCount, row.attach_count)), undefined] as const;
  // Read beside its links, a record's needs not done are counted from them (RECORD_COLUMNS_BESIDE).
  const blocked = inline ? undoneNeeds(found.also!.part_links as (LinkRow & { way: number })[]) : 0;
  const record = blocked ? recordOf({ ...row, blocked_by: blocked }) : found.record;
  const historyLimit = count(page.history, HISTORY);
  // A page not full, and not past the end, ends the history: its length says how long it is.
  const whole = (historyLimit < 0 || logRows.length < historyLimit) && (logRows.length > 0 || offset === 0);
  const historyCount = whole ? offset + logRows.length : logCount ?? await countOf(ctx, 'log', record.id);
  return {
    record: { ...record, notes: noteRows.map(noteOf), attached: attachRows.map(attachmentOf) },
    list,
    history: logRows.map(logOf),
    counts: { notes: noteCount, history: historyCount },
    ...links,
  };
}

/** A first page rounded up to one of a few limits said in the statement (0: none), or undefined past them. */
const saidLimit = (limit: number): number | undefined => (limit < 0 ? 0 : PAGE_LIMITS.find((l) => l >= limit));
/** The latest first, `limit` of them at most (-1: all), put back in order. */
const inOrder = <T>(latestFirst: T[], limit: number): T[] => (limit < 0 ? latestFirst : latestFirst.slice(0, limit)).reverse();

/** The page's columns for each engine and page size, made once: the look's statement is then made once too (access.ts). */
const pageColumns = new WeakMap<object, Map<string, Record<string, string>>>();
function columnsOf(asJson: NonNullable<Dialect['rowsAsJson']>, notesSaid: number, historySaid: number): Record<string, string> {
  let made = pageColumns.get(asJson);
  if (!made) pageColumns.set(asJson, (made = new Map()));
  const key = `${notesSaid} ${historySaid}`;
  let columns = made.get(key);
  if (!columns) {
    const latest = (table: 'notes' | 'log', said: number): string =>
      asJson(`SELECT * FROM ${table} WHERE record = r.id ORDER BY id DESC${said ? ` LIMIT ${said}` : ''}`, 'x.id DESC');
    columns = {
      part_notes: latest('notes', notesSaid),
      part_log: latest('log', historySaid),
      // A history longer than the page is counted here, not by a statement after (a round trip
      // more for every record busier than the page the faces ask, ten).
      ...(historySaid ? { part_log_count: '(SELECT count(*) FROM log WHERE record = r.id)' } : {}),
      part_attached: asJson('SELECT * FROM attachments WHERE record = r.id', 'x.id'),
      part_links: asJson(LINKS_OF_R, LINKS_ORDER),
    };
    made.set(key, columns);
  }
  return columns;
}

/**
 * A first page's parts as columns of the record's own statement, where the engine says so
 * (Dialect.rowsAsJson: one statement on a server, not five): the columns, and how their rows are
 * read once the record is found. undefined where parts are read apart.
 */
function inlineParts(ctx: Context, page: RecordPage) {
  const asJson = ctx.q.dialect.rowsAsJson;
  if (!asJson || count(page.offset, 0) !== 0) return undefined;
  const notes = count(page.notes, -1);
  const history = count(page.history, HISTORY);
  const [notesSaid, historySaid] = [saidLimit(notes), saidLimit(history)];
  if (notesSaid === undefined || historySaid === undefined) return undefined;
  return {
    columns: columnsOf(asJson, notesSaid, historySaid),
    read: async (ctx: Context, also: Record<string, unknown>, who: Who) => {
      const log = also.part_log as LogRowRaw[];
      return [
        inOrder(also.part_notes as NoteRow[], notes),
        inOrder(log, history),
        also.part_attached as AttachmentRow[],
        await linksShown(ctx, also.part_links as (LinkRow & { way: number })[], who),
        historySaid ? Number(also.part_log_count) : log.length,
      ] as const;
    },
  };
}

/**
 * A record's page of notes, history, attachments and needs, asked at once: a server store sends
 * them in one write and answers them together (one round trip, not four); SQLite reads them one
 * after the other all the same. Notes and attachments counted none (known) are not looked for.
 */
function parts(ctx: Context, id: number, who: Who, page: RecordPage, noteCount: number | undefined, attachCount: number | undefined) {
  const offset = count(page.offset, 0);
  // The latest first, so that a record of thousands of notes is read only as far as the page, then
  // put back in order here (an ORDER BY around the page cost SQLite a temporary tree per read).
  // No LIMIT -1 where there is no limit: it is SQLite's alone. A first page says its limit in the
  // statement, rounded up to one of a few (SQLite took ~7 µs more a read for a bound limit).
  const latest = async <T>(table: 'notes' | 'log', limit: number): Promise<T[]> => {
    const sql = `SELECT * FROM ${table} WHERE record = ? ORDER BY id DESC`;
    const said = offset === 0 ? saidLimit(limit) : undefined;
    const rows = said === 0 ? await ctx.q.all<T>(sql, [id])
      : said !== undefined ? await ctx.q.all<T>(`${sql} LIMIT ${said}`, [id])
        : await ctx.q.all<T>(`${sql} LIMIT ? OFFSET ?`, [id, limit < 0 ? Number.MAX_SAFE_INTEGER : limit, offset]);
    return inOrder(rows, said === undefined ? -1 : limit);
  };
  // The parts are asked for at once: a server store sends them in one write and answers them
  // together (one round trip, not four); SQLite reads them one after the other all the same.
  return Promise.all([
    noteCount === undefined || noteCount > offset ? latest<NoteRow>('notes', count(page.notes, -1)) : [],
    latest<LogRowRaw>('log', count(page.history, HISTORY)),
    (attachCount ?? 1) > 0 ? ctx.q.all<AttachmentRow>('SELECT * FROM attachments WHERE record = ? ORDER BY id', [id]) : [],
    recordLinks(ctx, id, who),
  ]);
}

const countOf = async (ctx: Context, table: 'notes' | 'log', record: number): Promise<number> =>
  (await ctx.q.value<number>(`SELECT count(*) FROM ${table} WHERE record = ?`, [record])) ?? 0;
