/**
 * A list as a table: one row per record, state by state, with its number, title, state, how
 * many records it waits on, owners, claim, due, things attached and approval. Columns that do not fit the width are left out, the title
 * last; every cell is cut and padded by the columns its text takes on the terminal (a CJK title
 * is as wide as it looks). Only the rows in the window are rendered.
 */
import { Box } from 'ink';
import type { RecordSummary } from '../../store/index.js';
import { useBinder } from '../context.js';
import { claimMark, dueStatus, padTo, safe, shortDue } from '../../person/format.js';
import { ownerNames, type NameOf } from '../../person/names.js';
import type { TableWindow } from '../../person/reading.js';
import { Pieces, Styled, mark, type Piece } from './Styled.js';
import { stateTone } from '../../person/state-tones.js';

export interface TableViewProps {
  table: TableWindow;
  focused: boolean;
  width: number;
  nameOf: NameOf;
}

type Key = 'id' | 'title' | 'state' | 'blocked' | 'owners' | 'due' | 'attached' | 'approved' | 'claim';

const WIDTHS: Record<Exclude<Key, 'title'>, number> = { id: 7, state: 12, blocked: 9, owners: 14, due: 12, attached: 5, approved: 6, claim: 18 };
/** Which columns to keep as the width shrinks: the first ones go last. */
const PRIORITY: Exclude<Key, 'title'>[] = ['id', 'due', 'approved', 'state', 'blocked', 'claim', 'owners', 'attached'];
const MIN_TITLE = 18;

function columnsFor(width: number): Key[] {
  const kept = new Set<Key>(['title']);
  let room = width - 2 - MIN_TITLE;
  for (const key of PRIORITY) {
    if (WIDTHS[key] <= room) {
      kept.add(key);
      room -= WIDTHS[key];
    }
  }
  return (['id', 'title', 'state', 'blocked', 'owners', 'claim', 'due', 'attached', 'approved'] as Key[]).filter((k) => kept.has(k));
}

/** A cell: cut to its column less one (the gap to the next), by display width. */
const pad = (text: string, width: number) => `${padTo(text, width - 1)} `;

export function TableView({ table, focused, width, nameOf }: TableViewProps) {
  const { words, now } = useBinder();
  const keys = columnsFor(width);
  const fixed = keys.reduce((n, k) => n + (k === 'title' ? 0 : WIDTHS[k]), 0);
  const titleWidth = Math.max(MIN_TITLE, width - 2 - fixed);
  const stateName = new Map(table.list.states.map((s) => [s.id, safe(s.name)]));
  const cell = (key: Key, r: RecordSummary | null): string => {
    const w = key === 'title' ? titleWidth : WIDTHS[key];
    if (!r) return pad(words.view.columns[key], w);
    switch (key) {
      case 'id': return pad(`#${r.id}`, w);
      case 'title': return pad(safe(r.title), w);
      case 'state': return pad(stateName.get(r.state) ?? safe(r.state), w);
      case 'blocked': return pad(r.blocked ? String(r.blocked) : '', w);
      case 'owners': return pad(ownerNames(r.owners, nameOf), w);
      case 'due': return pad(r.due ? `${dueStatus(r.due, now()) === 'overdue' ? '!' : ''}${shortDue(r.due, now())}` : '', w);
      case 'attached': return pad(r.attached ? String(r.attached) : '', w);
      case 'approved': return pad(r.approved ? '✓' : '', w);
      case 'claim': return pad(r.lease ? claimMark(r.lease, words, now()).replace(/^⚑ /, '') : '', w);
      default: {
        const never: never = key;
        throw new Error(`unknown column ${String(never)}`);
      }
    }
  };
  return (
    <Box flexDirection="column" width={width}>
      <Styled tone="head" selected={focused}>{`${focused ? '▸' : ' '} ${keys.map((k) => cell(k, null)).join('')}`}</Styled>
      {table.records.length === 0 ? <Styled tone="dim">{`  ${words.view.empty}`}</Styled> : null}
      {table.records.map((r, i) => {
        const on = table.cursor.scroll + i === table.cursor.at;
        const overdue = dueStatus(r.due, now()) === 'overdue';
        const pieces: Piece[] = [{ text: `${mark(on)} ` }, ...keys.map((k): Piece => ({ text: cell(k, r), ...(k === 'state' ? { tone: `state-${stateTone(table.list.states, r.state)}` as const } : {}) }))];
        return <Pieces key={r.id} selected={on && focused} tone={overdue ? 'warn' : 'plain'} pieces={pieces} />;
      })}
    </Box>
  );
}
