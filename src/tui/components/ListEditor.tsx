/**
 * A list's shape: its title, view, whether children come first, states in order (gates marked)
 * and fields. Each key changes
 * one thing at once through the catalog's edit-list.
 */
import { Box } from 'ink';
import type { List } from '../../store/index.js';
import { useBinder } from '../context.js';
import { cut, safe } from '../../person/format.js';
import { hintFor } from '../../person/help-lines.js';
import type { EditorRow } from '../../person/rows.js';
import { Styled, mark } from './Styled.js';
import { stateTone } from '../../person/state-tones.js';

export interface ListEditorProps {
  list: List;
  rows: readonly EditorRow[];
  at: number;
  scroll: number;
  page: number;
  width: number;
}

export function ListEditor({ list, rows, at, scroll, page, width }: ListEditorProps) {
  const { words } = useBinder();
  const w = words.listEditor;
  const text = (row: EditorRow): string => {
    switch (row.kind) {
      case 'title': return `${w.titleRow}: ${safe(list.title)}`;
      case 'view': return `${w.viewRow}: ${w.views[list.view]}`;
      case 'children': return `${words.arg('edit-list', 'childrenFirst').label}: ${row.on ? w.onOff.on : w.onOff.off}`;
      case 'state': return `${w.states} ${row.position}. ${safe(row.name)}${row.gate ? ` · ${w.gate}` : ''}`;
      case 'field': return `${w.fields}: ${safe(row.name)} (${row.type})`;
      default: {
        const never: never = row;
        throw new Error(`unknown row ${JSON.stringify(never)}`);
      }
    }
  };
  return (
    <Box flexDirection="column" width={width}>
      <Styled tone="title">{cut(w.title(safe(list.title)), width)}</Styled>
      <Styled tone="dim">{cut(hintFor(['listTitle', 'listView', 'stateAdd', 'fieldAdd', 'gateToggle', 'childrenToggle', 'rowEarlier', 'rowLater', 'rowRemove'], 'list-editor', words), width)}</Styled>
      {rows.slice(scroll, scroll + page).map((row, n) => {
        const i = scroll + n;
        const tone = row.kind === 'state' ? `state-${stateTone(list.states, row.id)}` as const : 'plain';
        return <Styled key={`${row.kind}-${'id' in row ? row.id : ''}`} tone={tone} selected={i === at}>{cut(`${mark(i === at)} ${text(row)}`, width)}</Styled>;
      })}
    </Box>
  );
}
