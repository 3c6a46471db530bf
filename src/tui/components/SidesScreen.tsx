/**
 * The agents' folders: those the keeper reads now (with their last ask and answers) and those
 * registered in the store. `n` registers one, `D` removes a registered one.
 */
import { Box } from 'ink';
import { useBinder } from '../context.js';
import { ago, safe } from '../format.js';
import { hintFor } from '../help-lines.js';
import type { SideRow } from '../rows.js';
import { Styled, mark } from './Styled.js';

export interface SidesScreenProps {
  rows: readonly SideRow[];
  at: number;
  now: number;
  width: number;
}

export function SidesScreen({ rows, at, now, width }: SidesScreenProps) {
  const { words } = useBinder();
  return (
    <Box flexDirection="column" width={width}>
      <Styled tone="title">{words.sides.title}</Styled>
      <Styled tone="dim">{hintFor(['sideAdd', 'sideRemove'], 'sides', words)}</Styled>
      {rows.length === 0 ? <Styled tone="dim">{words.sides.none}</Styled> : null}
      {rows.map((r, i) => {
        const state = r.folder
          ? r.folder.problem
            ? safe(r.folder.problem)
            : `${words.sides.lastAsk(ago(r.folder.lastAsk, now, words))} · ${words.sides.answered(r.folder.answered)}`
          : '';
        const where = [r.folder ? words.sides.kept : '', r.registered ? words.sides.registered : ''].filter(Boolean).join(', ');
        return (
          <Styled key={r.dir} selected={i === at} tone={r.folder?.problem ? 'warn' : 'plain'}>
            {`${mark(i === at)} ${safe(r.name).padEnd(14)} ${safe(r.dir)} · ${where}${state ? ` · ${state}` : ''}`}
          </Styled>
        );
      })}
    </Box>
  );
}
