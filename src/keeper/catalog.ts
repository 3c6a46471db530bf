/**
 * The catalog's working half: for each operation of `operations.ts`, what it does (through the
 * store) and how its answer reads. Dispatch (`perform.ts`), `binder admin`, MCP and the screen all
 * reach the binder through these entries; a new operation is one spec plus one entry here.
 */
import { type Access, approvalMark, type AttachKind, type EditedRecord, type FieldInput, type FieldType, type List, type ListPatch, type RecordSummary, Refused, type StateInput, type Store, type Who } from '../store/index.js';
import type { OpName } from './operations.js';
import { GET_HISTORY, GET_NOTES } from './operations.js';
import { saySearch, sayLists, sayRecord, sayShow } from './text-reading.js';
import { Shown, joined, lines, said, word, type Told } from './text-values.js';
import { step } from '../store/light.js';
import { TOGETHER } from './catalog-together.js';
import { NEEDS } from './catalog-needs.js';
import { bindPath } from './folder-bind.js';
import { exposureLines, exposureOf } from './folder-exposure.js';
import { TOKENS } from './catalog-tokens.js';
import { PEOPLE } from './catalog-people.js';

export interface CatalogContext {
  store: Store;
}

export interface CatalogEntry {
  /** Does it and returns the answer's data. Rejects with Refused for what the asker can fix. */
  run(args: Record<string, unknown>, who: Who, ctx: CatalogContext): Promise<unknown>;
  /**
   * The text an agent (or a person) reads, from the data; in the same transaction as `run`, so
   * what it looks up (a list's state names) is what the data was made against.
   */
  say(data: never, args: Record<string, unknown>, who: Who, ctx: CatalogContext): Told | Promise<Told>;
  /**
   * Its run is one read of the store's, and its say reads nothing: it needs no transaction around
   * them, the store's read taking what it needs (a record's page is one statement on a server).
   */
  oneRead?: true;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);
const recordRef = (v: unknown): number | string => (typeof v === 'number' ? v : String(v ?? ''));
/** The labels given (`--label`, MCP's `label`), each word as written: the store reads + and -. */
const labelsOf = (a: Record<string, unknown>): string[] | undefined => (a.label === undefined ? undefined : strs(a.label));
/** A due date as given: `none` clears. */
const dueOf = (v: unknown): string | undefined => (typeof v !== 'string' ? undefined : v === 'none' ? '' : v);

const entry = <D>(run: (a: Record<string, unknown>, who: Who, ctx: CatalogContext) => D | Promise<D>,
  say: (d: D, a: Record<string, unknown>, who: Who, ctx: CatalogContext) => Told | Promise<Told>, oneRead?: true): CatalogEntry =>
  ({ run: async (a, who, ctx) => run(a, who, ctx), say: say as CatalogEntry['say'], ...(oneRead ? { oneRead } : {}) });

const counted = (n: number, one: string): string => `${n} ${one}${n === 1 ? '' : 's'}`;
/** `, with 3 notes and 1 attachment`: what went with a deletion, so the person knows. */
const withIt = (d: { notes: number; attachments: number }): string =>
  (d.notes || d.attachments ? `, with ${[d.notes ? counted(d.notes, 'note') : '', d.attachments ? counted(d.attachments, 'attachment') : ''].filter(Boolean).join(' and ')}` : '');

const stateName = (list: List, id: string): string => list.states.find((s) => s.id === id)?.name ?? id;
const listOf = (ctx: CatalogContext, r: RecordSummary, who: Who): Promise<List> => ctx.store.list(r.list, who);

/** `NAME=VALUE` → [NAME, VALUE], or a refusal naming the flag. */
const pair = (given: string, what: string): [string, string] => {
  const at = given.lastIndexOf('=');
  if (at < 1) throw new Refused(`Give ${what} as NAME=VALUE, not "${given}".`, `Donnez ${what} sous la forme NOM=VALEUR, pas « ${given} ».`);
  return [given.slice(0, at), given.slice(at + 1)];
};

/** The incremental edits of `binder admin edit-list` turned into the store's whole-list patch. */
function listPatch(list: List, a: Record<string, unknown>): ListPatch {
  const patch: ListPatch = {};
  if (str(a.title) !== undefined) patch.title = str(a.title);
  if (a.view === 'board' || a.view === 'table') patch.view = a.view;
  const stateEdits = ['addState', 'renameState', 'moveState', 'removeState', 'gate', 'ungate'].some((k) => strs(a[k]).length);
  if (stateEdits) {
    const states: StateInput[] = list.states.map((s) => ({ id: s.id, name: s.name, gate: s.gate }));
    const find = (name: string): number => {
      const at = states.findIndex((s) => s.name.toLowerCase() === name.toLowerCase() || s.id === name);
      if (at < 0) {
        const names = states.map((s) => s.name).join(', ');
        throw new Refused(
          `"${list.title}" has no state "${name}": its states are ${names}.`,
          `« ${list.title} » n'a aucun état « ${name} » : ses états sont ${names}.`,
        );
      }
      return at;
    };
    for (const name of strs(a.addState)) states.push({ name, gate: false });
    for (const given of strs(a.renameState)) { const [from, to] = pair(given, '--rename-state'); states[find(from)]!.name = to; }
    for (const given of strs(a.moveState)) {
      const [name, position] = pair(given, '--move-state');
      const n = Number(position);
      if (!Number.isInteger(n) || n < 1 || n > states.length) {
        throw new Refused(`Give --move-state a position from 1 to ${states.length}.`, `Donnez à --move-state une position de 1 à ${states.length}.`);
      }
      const [moved] = states.splice(find(name), 1);
      states.splice(n - 1, 0, moved!);
    }
    for (const name of strs(a.removeState)) states.splice(find(name), 1);
    for (const name of strs(a.gate)) states[find(name)]!.gate = true;
    for (const name of strs(a.ungate)) states[find(name)]!.gate = false;
    patch.states = states;
  }
  if (strs(a.addField).length || strs(a.removeField).length) {
    const fields: FieldInput[] = list.fields.map((f) => ({ id: f.id, name: f.name, type: f.type, ...(f.choices ? { choices: f.choices } : {}) }));
    for (const given of strs(a.addField)) {
      const [name, type = 'text', choices] = given.split(':');
      if (!name) {
        throw new Refused(
          'Give --add-field as NAME:TYPE, e.g. value:number or size:choice:S|M|L.',
          'Donnez --add-field sous la forme NOM:TYPE, par exemple montant:number ou taille:choice:S|M|L.',
        );
      }
      fields.push({ name, type: type as FieldType, ...(choices ? { choices: choices.split('|') } : {}) });
    }
    for (const name of strs(a.removeField)) {
      const at = fields.findIndex((f) => f.name.toLowerCase() === name.toLowerCase() || f.id === name);
      if (at < 0) throw new Refused(`"${list.title}" has no field "${name}".`, `« ${list.title} » n'a aucun champ « ${name} ».`);
      fields.splice(at, 1);
    }
    patch.fields = fields;
  }
  if (a.childrenFirst === 'on' || a.childrenFirst === 'off') patch.childrenFirst = a.childrenFirst === 'on';
  if (Object.keys(patch).length === 0) {
    const flags = '--title, --view, --add-state, --rename-state, --move-state, --remove-state, --gate, --ungate, --add-field, --remove-field';
    throw new Refused(
      `Say what to change: ${flags} or --children-first.`,
      `Dites ce qu'il faut changer : ${flags} ou --children-first.`,
    );
  }
  return patch;
}

/** An approval withdrawn by the asker's change: what a person approved is no longer what the record says. */
function sayWithdrawn(r: EditedRecord, list: List): Shown {
  const w = r.withdrawn!;
  const back = w.to !== undefined ? said` and it is back in ${stateName(list, w.to)}` : '';
  const again = said`A person must approve it again; ${step('wait', { on: String(r.id) })} returns when one does.`;
  return said`${w.approval.by.name} had approved it as it was: the approval is withdrawn${back}. ${again}`;
}

const describeList = (l: List) => {
  const states = joined(l.states.map((s) => said`${s.name}${s.gate ? ' (gate)' : ''}`), ' → ');
  const fields = l.fields.length ? said`; fields ${joined(l.fields.map((f) => said`${f.name}:${f.type}`), ', ')}` : '';
  const access = Object.keys(l.access).length
    ? said`; agents ${joined(Object.entries(l.access).map(([id, a]) => said`${id} ${a}`), ', ')}`
    : said`; no agent has access`;
  const first = l.childrenFirst ? '; a parent is ready once its children are done' : '';
  return said`${l.id}: ${l.title} (${l.view}); states ${states}${fields}${first}${access}${l.archived ? '; archived' : ''}`;
};

/** The page of notes and history rows `get` shows: as asked, else the latest few of each. */
const pageOf = (a: Record<string, unknown>) => ({
  notes: typeof a.notes === 'number' ? a.notes : GET_NOTES,
  history: typeof a.history === 'number' ? a.history : GET_HISTORY,
  offset: typeof a.offset === 'number' ? a.offset : 0,
});

export const CATALOG: Record<OpName, CatalogEntry> = {
  lists: entry((a, who, { store }) => store.lists(who, { archived: a.archived === true }), (d, _a, who) => sayLists(d, who)),
  show: entry(
    (a, who, { store }) => store.show(String(a.list), who, { state: str(a.state), mine: a.mine === true, archived: a.archived === true, query: str(a.query), offset: typeof a.offset === 'number' ? a.offset : undefined }),
    (d, a, who) => sayShow(d, who, { state: str(a.state), archived: a.archived === true, offset: typeof a.offset === 'number' ? a.offset : 0 }),
  ),
  get: entry(async (a, who, { store }) => {
    const view = await store.get(recordRef(a.id), who, pageOf(a));
    // A person at a shell approves what they read with this mark; an agent has no use for it.
    return who.kind === 'person' ? { ...view, mark: approvalMark(view.record.title, view.record.fields) } : view;
  }, (d, a) => sayRecord(d, pageOf(a)), true),
  search: entry(
    (a, who, { store }) => store.search(String(a.text), who, { archived: a.archived === true, limit: 50 }),
    (d, a) => saySearch(d, String(a.text), 50),
  ),
  add: entry(
    (a, who, { store }) => store.add(String(a.list), {
      title: String(a.title), state: str(a.state), due: dueOf(a.due), note: str(a.note),
      owners: Array.isArray(a.owners) ? strs(a.owners) : undefined,
      fields: a.fields as Record<string, string> | undefined, labels: labelsOf(a), parent: str(a.parent),
    }, who),
    async (r, _a, who, ctx) => {
      const list = await listOf(ctx, r, who);
      const gate = list.states.find((s) => s.gate);
      const hint = gate && !r.approved ? said` A person approves it before it passes "${gate.name}".` : '';
      return said`Added #${r.id} to ${list.id} in ${stateName(list, r.state)}.${hint}`.text;
    },
  ),
  edit: entry(
    (a, who, { store }) => store.edit(recordRef(a.id), {
      title: str(a.title), due: dueOf(a.due),
      owners: Array.isArray(a.owners) ? strs(a.owners) : undefined,
      fields: a.fields as Record<string, string> | undefined, labels: labelsOf(a), parent: str(a.parent),
    }, who),
    // What the store changed, never what was asked: a value given as it was, or one that came to nothing, is no change.
    async (r, _a, who, ctx) => said`${new Shown(r.changed.length ? `Changed #${r.id}: ${r.changed.join(', ')}.` : `Nothing changed on #${r.id}: what was given is what it holds.`)}${
      r.withdrawn ? said` ${sayWithdrawn(r, await listOf(ctx, r, who))}` : ''}`,
  ),
  move: entry(
    (a, who, { store }) => store.move(recordRef(a.id), String(a.state), who, typeof a.seen === 'string' ? a.seen : undefined),
    async (r, _a, who, ctx) => (r.stayed
      ? said`#${r.id} is already in ${stateName(await listOf(ctx, r, who), r.state)}: nothing moved.`.text
      : said`#${r.id} is now in ${stateName(await listOf(ctx, r, who), r.state)}.`.text),
  ),
  note: entry(
    async (a, who, { store }) => ({ record: Number(String(a.id).replace(/^#/, '')), note: await store.note(recordRef(a.id), String(a.text), who) }),
    (d) => `Noted on #${d.record} (n${d.note.id}).`,
  ),
  attach: entry(
    async (a, who, { store }) => ({ record: Number(String(a.id).replace(/^#/, '')), attachment: await store.attach(recordRef(a.id), { kind: a.kind as AttachKind, ref: String(a.ref), title: str(a.title) }, who) }),
    (d) => said`Attached ${d.attachment.kind} ${d.attachment.ref} to #${d.record} (a${d.attachment.id}).`.text,
  ),
  detach: entry(
    async (a, who, { store }) => ({ record: Number(String(a.id).replace(/^#/, '')), attachment: await store.detach(recordRef(a.id), String(a.what), who) }),
    (d) => said`Took ${d.attachment.kind} ${d.attachment.ref} off #${d.record}.`.text,
  ),
  archive: entry(
    (a, who, { store }) => store.archive(recordRef(a.id), a.restore !== true, who),
    (r) => (r.archived ? said`Archived #${r.id}; ${step('restore', { id: r.id })} brings it back.` : `Restored #${r.id}.`),
  ),
  restore: entry((a, who, { store }) => store.archive(recordRef(a.id), false, who), (r) => `Restored #${r.id}.`),
  ...TOGETHER,
  ...NEEDS,

  approve: entry(
    (a, who, { store }) => store.approve(recordRef(a.id), a.withdraw !== true, who, typeof a.seen === 'string' ? a.seen : undefined),
    async (r, _a, who, ctx) => (r.approved
      ? `Approved #${r.id}: it may go past the gate now.`
      : said`Withdrew the approval of #${r.id}; it is in ${stateName(await listOf(ctx, r, who), r.state)}.`.text),
  ),
  delete: entry((a, who, { store }) => store.delete(recordRef(a.id), who, { children: a.children as 'orphan' | 'delete' | undefined }),
    (d) => `Deleted #${d.id}${d.children ? ` and ${d.children.map((c) => `#${c}`).join(", ")} under it` : ''} for good${withIt(d)}.`),
  'edit-note': entry(
    (a, who, { store }) => store.editNote(recordRef(a.id), Number(a.note), String(a.text), who),
    (n) => `Rewrote note n${n.id}.`,
  ),
  templates: entry(
    (a, _who, { store }) => store.templates(a.lang === 'fr' ? 'fr' : 'en'),
    (ts) => lines([...ts.map((t) => said`${t.id}: ${t.title}, ${t.describe}`), said`Next: binder admin create-list TITLE --template ID`]),
  ),
  'create-list': entry(
    (a, who, { store }) => store.createList({ template: String(a.template), title: str(a.title), lang: a.lang === 'fr' ? 'fr' : 'en' }, who),
    (l) => lines([said`Made ${describeList(l)}.`, said`Give an agent access: binder admin grant ${word(l.id)} AGENT write`]),
  ),
  'edit-list': entry(
    async (a, who, { store }) => store.editList(String(a.list), listPatch(await store.list(String(a.list), who), a), who),
    (l) => said`Changed ${describeList(l)}.`.text,
  ),
  grant: entry(
    async (a, who, { store }) => {
      const access = a.access === 'none' ? null : (a.access as Access);
      return { list: await store.grant(String(a.list), String(a.agent), access, who), access };
    },
    (d, a) => {
      const agent = String(a.agent);
      return (d.access ? said`${agent} may now ${d.access === 'write' ? 'read and change' : 'read'} ${d.list.id}.` : said`${agent} has no access to ${d.list.id} now.`).text;
    },
  ),
  'archive-list': entry(
    (a, who, { store }) => store.archiveList(String(a.list), a.restore !== true, who),
    (l) => (l.archived ? said`Archived the list ${l.id}.` : said`Restored the list ${l.id}.`).text,
  ),
  'delete-list': entry(
    (a, who, { store }) => store.deleteList(String(a.list), who),
    (d) => said`Deleted the list ${d.id} (${d.title}) and its ${d.records} record${d.records === 1 ? '' : 's'} for good${withIt(d)}.`.text,
  ),
  sides: entry(
    async (_a, _who, { store }) => (await store.sides()).map((s) => ({ ...s, ...exposureOf(s.dir) })),
    (sides) => (sides.length
      ? lines(sides.flatMap((s) => [said`${s.name} (${s.agent}): ${s.dir}`, ...exposureLines(s.name, s.dir, s).map((l) => said`  ${l}`)]))
      : 'No agent folder is registered: binder admin side add FOLDER NAME'),
  ),
  'side-add': entry(
    async (a, who, { store }) => {
      const side = await store.addSide(String(a.dir), String(a.name), who, bindPath);
      return { ...side, ...exposureOf(side.dir) };
    },
    (s) => lines([s.again
      ? said`The keeper reads ${s.dir} as ${s.name} (${s.agent}) again, bound to the directory there now, and reads it afresh.`
      : said`The keeper reads ${s.dir} as ${s.name} (${s.agent}). Grant it a list: binder admin grant LIST ${word(s.name)} write`,
    ...exposureLines(s.name, s.dir, s).map((l) => said`${l}`)]),
  ),
  'side-remove': entry(
    (a, who, { store }) => store.removeSide(String(a.name), who),
    (s) => said`The keeper no longer reads ${s.dir} (${s.name}).`.text,
  ),
  ...TOKENS,
  ...PEOPLE,
};
