/**
 * A dialog in front of the view: a form (text fields typed in place, choices turned with ← →),
 * a pick among choices, or a confirmation (by `y`, or by typing a list's title). Keys reach it
 * through the keymap; the text fields only type. What is typed is made safe before it is kept.
 */
import { Box } from 'ink';
import TextInput from 'ink-text-input';
import { terminalSafe } from '../../keeper/terminal-safe.js';
import { useBinder } from '../context.js';
import { cut, wrap } from '../format.js';
import { hintFor } from '../help-lines.js';
import type { Dialog } from '../screen-state.js';
import { Styled, mark } from './Styled.js';

export interface DialogViewProps {
  dialog: Dialog;
  width: number;
  onValue: (name: string, value: string) => void;
  onTyped: (value: string) => void;
}

export function DialogView({ dialog, width, onValue, onTyped }: DialogViewProps) {
  const { words } = useBinder();
  if (dialog.kind === 'form') {
    const labelWidth = Math.min(18, Math.max(...dialog.fields.map((f) => f.label.length)) + 2);
    const focused = dialog.fields[dialog.focus];
    return (
      <Box flexDirection="column" width={width}>
        <Styled tone="title">{dialog.title}</Styled>
        <Styled tone="dim">{dialog.describe}</Styled>
        <Styled>{' '}</Styled>
        {dialog.fields.map((field, i) => {
          const on = i === dialog.focus;
          const value = dialog.values[field.name] ?? '';
          const head = `${mark(on)} ${cut(field.label, labelWidth - 2).padEnd(labelWidth)}`;
          if (field.kind === 'choice') {
            const label = field.choices?.find((c) => c.value === value)?.label ?? value;
            return <Styled key={field.name} selected={on}>{`${head}‹ ${label} ›`}</Styled>;
          }
          return (
            <Box key={field.name}>
              <Styled selected={false}>{head}</Styled>
              {on
                ? <TextInput value={value} onChange={(v) => onValue(field.name, terminalSafe(v))} focus showCursor />
                : <Styled>{cut(value, Math.max(4, width - labelWidth - 2))}</Styled>}
            </Box>
          );
        })}
        <Styled>{' '}</Styled>
        <Styled tone="dim">{focused?.hint ?? ''}</Styled>
        <Styled tone="dim">{hintFor(['submit', 'nextField', 'prevField', 'choicePrev', 'choiceNext', 'cancel'], 'form', words)}</Styled>
      </Box>
    );
  }
  if (dialog.kind === 'pick') {
    return (
      <Box flexDirection="column" width={width}>
        <Styled tone="title">{dialog.title}</Styled>
        {dialog.choices.map((c, i) => (
          <Styled key={c.value || `choice-${i}`} selected={i === dialog.at}>{`${mark(i === dialog.at)} ${c.label}`}</Styled>
        ))}
      </Box>
    );
  }
  return (
    <Box flexDirection="column" width={width}>
      {wrap(dialog.text, width).map((row, i) => <Styled key={i} tone="warn">{row}</Styled>)}
      <Styled>{' '}</Styled>
      {dialog.typed
        ? (
          <Box>
            <Styled>{`${words.dialog.typeTitle} `}</Styled>
            <TextInput value={dialog.typed.value} onChange={(v) => onTyped(terminalSafe(v))} focus showCursor />
          </Box>
        )
        : <Styled tone="dim">{hintFor(['yes', 'cancel'], 'confirm', words)}</Styled>}
    </Box>
  );
}
