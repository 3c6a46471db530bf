/**
 * The agents' folders: those the keeper reads now (with their last ask and answers) and those
 * registered in the store. `n` registers one, `D` removes a registered one.
 */
import { Box } from 'ink';
import { useBinder } from '../context.js';
import { ago, cut, padTo, safe } from '../../person/format.js';
import { hintFor } from '../../person/help-lines.js';
import { sideWarning, type SideRow } from '../../person/rows.js';
import { Styled, mark } from './Styled.js';

export interface SidesScreenProps {
  rows: readonly SideRow[];
  at: number;
  scroll: number;
  page: number;
  now: number;
  width: number;
}

export function SidesScreen({ rows, at, scroll, page, now, width }: SidesScreenProps) {
  const { words } = useBinder();
  const warning = sideWarning(rows, words);
  return (
    <Box flexDirection="column" width={width}>
      <Styled tone="title">{cut(words.sides.title, width)}</Styled>
      <Styled tone="dim">{cut(hintFor(['sideAdd', 'sideRemove', 'undo'], 'sides', words), width)}</Styled>
      {warning ? <Styled tone="warn">{cut(safe(warning), width)}</Styled> : null}
      {rows.length === 0 ? <Styled tone="dim">{words.sides.none}</Styled> : null}
      {rows.slice(scroll, scroll + page).map((r, n) => {
        const i = scroll + n;
        const state = r.folder
          ? r.folder.problem
            ? safe(r.folder.problem)
            : `${words.sides.lastAsk(ago(r.folder.lastAsk, now, words))} · ${words.sides.answered(r.folder.answered)}`
          : '';
        const where = [r.folder ? words.sides.kept : '', r.registered ? words.sides.registered : ''].filter(Boolean).join(', ');
        return (
          <Styled key={r.dir} selected={i === at} tone={r.folder?.problem || r.keeperUser || r.othersRead ? 'warn' : 'plain'}>
            {cut(`${mark(i === at)} ${padTo(safe(r.name), 14)} ${safe(r.dir)} · ${where}${state ? ` · ${state}` : ''}`, width)}
          </Styled>
        );
      })}
    </Box>
  );
}
