/**
 * The agents and their access to one list (none, read, write); ← → change the one under the cursor.
 */
import { Box } from 'ink';
import type { List } from '../../store/index.js';
import { useBinder } from '../context.js';
import { cut, padTo, safe } from '../../person/format.js';
import { hintFor } from '../../person/help-lines.js';
import { ACCESS_ORDER, type AgentRow } from '../../person/rows.js';
import { Styled, mark } from './Styled.js';

export interface GrantScreenProps {
  list: List;
  rows: readonly AgentRow[];
  at: number;
  scroll: number;
  page: number;
  width: number;
}

export function GrantScreen({ list, rows, at, scroll, page, width }: GrantScreenProps) {
  const { words } = useBinder();
  const levels = words.grant.levels;
  return (
    <Box flexDirection="column" width={width}>
      <Styled tone="title">{cut(words.grant.title(safe(list.title)), width)}</Styled>
      <Styled tone="dim">{cut(hintFor(['accessLess', 'accessMore', 'back'], 'grant', words), width)}</Styled>
      {rows.length === 0 ? <Styled tone="dim">{words.grant.noAgents}</Styled> : null}
      {rows.slice(scroll, scroll + page).map((r, n) => {
        const i = scroll + n;
        const scale = ACCESS_ORDER.map((a) => (a === r.access ? `[${levels[a]}]` : ` ${levels[a]} `)).join(' ');
        return (
          <Styled key={r.agent} selected={i === at}>
            {cut(`${mark(i === at)} ${padTo(safe(r.name), 16)} ${scale}  ${r.dir ? safe(r.dir) : ''}`, width)}
          </Styled>
        );
      })}
    </Box>
  );
}
