/**
 * A table's rows in the order its header asked: by number, title, state (in the list's order of
 * states), owners (by the names shown), due date or a field (a choice in the order of its
 * choices, a number as a number, else as words are sorted in the page's language); a second click
 * on the same header reverses it. Empty values go last either way, and records that tie keep
 * their numbers' order. Pure: the page's keys go over the rows in the order this gives.
 */
import type { Field, List, RecordSummary } from '../store/index.js';
import type { NameOf } from '../person/names.js';
import type { Lang } from '../person/words.js';

/** What a table is sorted by: `number`, `title`, `state`, `owners`, `due`, or `field:<id>`. */
export type SortKey = 'number' | 'title' | 'state' | 'owners' | 'due' | `field:${string}`;

export interface TableSort { key: SortKey; descending: boolean }

/** The sort after a click on `key`'s header: that key ascending, or the same key reversed. */
export const sortClicked = (was: TableSort | null, key: SortKey): TableSort =>
  (was?.key === key ? { key, descending: !was.descending } : { key, descending: false });

/** How a header says its sort, for `aria-sort`. */
export const ariaSort = (sort: TableSort | null, key: SortKey): 'ascending' | 'descending' | 'none' =>
  (sort?.key !== key ? 'none' : sort.descending ? 'descending' : 'ascending');

type Value = number | string | null;

function fieldValue(field: Field | undefined, text: string | undefined): Value {
  if (text === undefined || text === '') return null;
  if (field?.type === 'choice' && field.choices?.includes(text)) return field.choices.indexOf(text);
  if (field?.type === 'number' && Number.isFinite(Number(text))) return Number(text);
  return text;
}

function valueOf(record: RecordSummary, key: SortKey, list: List, nameOf: NameOf): Value {
  switch (key) {
    case 'number': return record.id;
    case 'title': return record.title;
    case 'state': {
      const at = list.states.findIndex((s) => s.id === record.state);
      return at < 0 ? null : at;
    }
    case 'owners': return record.owners.length ? record.owners.map(nameOf).join(', ') : null;
    case 'due': return record.due;
    default: {
      const id = key.slice('field:'.length);
      return fieldValue(list.fields.find((f) => f.id === id), record.fields[id]);
    }
  }
}

/** The records in the order `sort` asks (as given when none). */
export function sortedRows(records: readonly RecordSummary[], sort: TableSort | null, list: List, nameOf: NameOf, lang: Lang): RecordSummary[] {
  if (!sort) return [...records];
  const words = new Intl.Collator(lang, { numeric: true, sensitivity: 'base' });
  const keyed = records.map((record) => ({ record, value: valueOf(record, sort.key, list, nameOf) }));
  const way = sort.descending ? -1 : 1;
  keyed.sort((a, b) => {
    if (a.value === null || b.value === null) {
      if (a.value !== b.value) return a.value === null ? 1 : -1;
      return a.record.id - b.record.id;
    }
    const by = typeof a.value === 'number' && typeof b.value === 'number' ? a.value - b.value : words.compare(String(a.value), String(b.value));
    return by !== 0 ? by * way : a.record.id - b.record.id;
  });
  return keyed.map((k) => k.record);
}
