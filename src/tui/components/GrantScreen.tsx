/**
 * The agents and their access to one list (none, read, write); ← → change the one under the cursor.
 */
import { Box } from 'ink';
import type { List } from '../../store/types.js';
import { useBinder } from '../context.js';
import { safe } from '../format.js';
import { hintFor } from '../help-lines.js';
import { ACCESS_ORDER, type AgentRow } from '../rows.js';
import { Styled, mark } from './Styled.js';

export interface GrantScreenProps {
  list: List;
  rows: readonly AgentRow[];
  at: number;
  width: number;
}

export function GrantScreen({ list, rows, at, width }: GrantScreenProps) {
  const { words } = useBinder();
  const levels = words.grant.levels;
  return (
    <Box flexDirection="column" width={width}>
      <Styled tone="title">{words.grant.title(safe(list.title))}</Styled>
      <Styled tone="dim">{hintFor(['accessLess', 'accessMore', 'back'], 'grant', words)}</Styled>
      {rows.length === 0 ? <Styled tone="dim">{words.grant.noAgents}</Styled> : null}
      {rows.map((r, i) => {
        const scale = ACCESS_ORDER.map((a) => (a === r.access ? `[${levels[a]}]` : ` ${levels[a]} `)).join(' ');
        return (
          <Styled key={r.agent} selected={i === at}>
            {`${mark(i === at)} ${safe(r.name).padEnd(16)} ${scale}  ${safe(r.agent)}${r.dir ? ` ${safe(r.dir)}` : ''}`}
          </Styled>
        );
      })}
    </Box>
  );
}
