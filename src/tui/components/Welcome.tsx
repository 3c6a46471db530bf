/**
 * The first run, on a binder with no list: what Binder is, the templates to start from, and
 * which agent folder the first list will be opened to.
 */
import { Box } from 'ink';
import type { SideConfig } from '../../keeper/keeper-types.js';
import type { TemplateSummary } from '../../store/store.js';
import { useBinder } from '../context.js';
import { safe, wrap } from '../format.js';
import { Styled, mark } from './Styled.js';

export interface WelcomeProps {
  templates: readonly TemplateSummary[];
  at: number;
  side: SideConfig | null;
  width: number;
}

export function Welcome({ templates, at, side, width }: WelcomeProps) {
  const { words } = useBinder();
  return (
    <Box flexDirection="column" width={width}>
      <Styled tone="title">{words.welcome.title}</Styled>
      <Styled>{' '}</Styled>
      {wrap(words.welcome.intro, width).map((row, i) => <Styled key={i} tone="dim">{row}</Styled>)}
      <Styled>{' '}</Styled>
      <Styled>{words.welcome.pick}</Styled>
      {templates.map((t, i) => (
        <Styled key={t.id} selected={i === at}>{`${mark(i === at)} ${safe(t.title).padEnd(12)} ${safe(t.describe)}`}</Styled>
      ))}
      <Styled>{' '}</Styled>
      {side ? <Styled tone="dim">{words.welcome.agentNote(safe(side.who.name), safe(side.dir))}</Styled> : null}
    </Box>
  );
}
