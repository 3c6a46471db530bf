/**
 * The first run, on a binder with no list: what Binder is, the templates to start from, and
 * which agent folder the first list will be opened to — or, with none yet, what a folder is and
 * the key that registers one.
 */
import { Box } from 'ink';
import type { SideConfig } from '../../keeper/keeper-types.js';
import type { TemplateSummary } from '../../store/index.js';
import { useBinder } from '../context.js';
import { cut, padTo, safe, wrap } from '../../person/format.js';
import { keyLabel } from '../../person/help-lines.js';
import { keysFor } from '../../person/keymap.js';
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
      <Styled tone="title">{cut(words.welcome.title, width)}</Styled>
      <Styled>{' '}</Styled>
      {wrap(words.welcome.intro, width).map((row, i) => <Styled key={i} tone="dim">{row}</Styled>)}
      <Styled>{' '}</Styled>
      <Styled>{cut(words.welcome.pick, width)}</Styled>
      {templates.map((t, i) => (
        <Styled key={t.id} selected={i === at}>{cut(`${mark(i === at)} ${padTo(safe(t.title), 12)} ${safe(t.describe)}`, width)}</Styled>
      ))}
      <Styled>{' '}</Styled>
      {side ? wrap(words.welcome.agentNote(safe(side.who.name), safe(side.dir), keyLabel(keysFor('grant', 'records')[0]!, words)), width).map((row, i) => <Styled key={`side-${i}`} tone="dim">{row}</Styled>)
        : wrap(words.welcome.folders(keyLabel(keysFor('sides', 'welcome')[0]!, words)), width).map((row, i) => <Styled key={`folders-${i}`} tone="dim">{row}</Styled>)}
    </Box>
  );
}
