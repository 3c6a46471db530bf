/**
 * A dialog in front of the view: a form (text fields edited in place, choices turned with ← →),
 * a pick among choices, or a confirmation (by `y`, or by typing a list's title). It fits the rows
 * it is given: a form taller than the screen shows the fields around the one in focus, saying
 * how many are above and below; it never draws past its rows. It only draws: keys reach the
 * dialog through the keymap and the reducer.
 */
import { Box } from 'ink';
import { useBinder } from '../context.js';
import { cut, displayWidth, padTo, wrap } from '../../person/format.js';
import { hintFor } from '../../person/help-lines.js';
import { columnWindow } from '../layout.js';
import type { Dialog } from '../../person/screen-state.js';
import { Styled, mark } from './Styled.js';
import { TextField } from './TextField.js';

export interface DialogViewProps {
  dialog: Dialog;
  width: number;
  /** Rows the dialog may take. */
  rows: number;
  /** The frame's row the dialog starts on (for the terminal's cursor). */
  top: number;
}

export function DialogView({ dialog, width, rows, top }: DialogViewProps) {
  const { words } = useBinder();
  if (dialog.kind === 'form') {
    const labelWidth = Math.min(18, Math.max(...dialog.fields.map((f) => displayWidth(f.label))) + 2);
    const focused = dialog.fields[dialog.focus];
    const room = Math.max(1, rows - 6);
    const { from, to } = columnWindow(dialog.fields.length, room, dialog.focus);
    const valueWidth = Math.max(4, width - labelWidth - 2);
    const context = focused?.kind === 'text' ? 'field' : 'form';
    return (
      <Box flexDirection="column" width={width}>
        <Styled tone="title">{cut(dialog.title, width)}</Styled>
        <Styled tone="dim">{cut(dialog.describe, width)}</Styled>
        <Styled tone="dim">{from > 0 ? words.view.moreAbove(from) : ' '}</Styled>
        {dialog.fields.slice(from, to).map((field, n) => {
          const i = from + n;
          const on = i === dialog.focus;
          const value = dialog.values[field.name] ?? '';
          const head = `${mark(on)} ${padTo(field.label, labelWidth)}`;
          if (field.kind === 'choice') {
            const label = field.choices?.find((c) => c.value === value)?.label ?? value;
            return <Styled key={field.name} selected={on}>{cut(`${head}‹ ${label} ›`, width)}</Styled>;
          }
          return (
            <Box key={field.name}>
              <Styled>{head}</Styled>
              {on
                ? <TextField value={value} caret={dialog.caret} width={valueWidth} origin={{ x: labelWidth + 2, y: top + 3 + n }} />
                : <Styled>{cut(value.replace(/\n/g, '↵'), valueWidth) || ' '}</Styled>}
            </Box>
          );
        })}
        <Styled tone="dim">{to < dialog.fields.length ? words.view.moreBelow(dialog.fields.length - to) : ' '}</Styled>
        <Styled tone="dim">{cut(focused?.hint ?? '', width)}</Styled>
        <Styled tone="dim">{cut(hintFor(['submit', ...(focused?.lines ? ['editNewLine' as const] : []), 'nextField', 'prevField', 'choicePrev', 'choiceNext', 'cancel'], context, words), width)}</Styled>
      </Box>
    );
  }
  if (dialog.kind === 'pick') {
    // A question longer than a row (what becomes of a record's children) is wrapped, never cut.
    const head = wrap(dialog.title, width).slice(0, Math.max(1, Math.floor(rows / 2)));
    const { from, to } = columnWindow(dialog.choices.length, Math.max(1, rows - head.length), dialog.at);
    return (
      <Box flexDirection="column" width={width}>
        {head.map((row, i) => <Styled key={`title-${i}`} tone="title">{row}</Styled>)}
        {dialog.choices.slice(from, to).map((c, n) => {
          const i = from + n;
          return <Styled key={c.value || `choice-${i}`} selected={i === dialog.at}>{cut(`${mark(i === dialog.at)} ${c.label}`, width)}</Styled>;
        })}
      </Box>
    );
  }
  const text = wrap(dialog.text, width).slice(0, Math.max(1, rows - 2));
  const prompt = `${words.dialog.typeTitle} `;
  return (
    <Box flexDirection="column" width={width}>
      {text.map((row, i) => <Styled key={i} tone="warn">{row}</Styled>)}
      <Styled>{' '}</Styled>
      {dialog.typed
        ? (
          <Box>
            <Styled>{prompt}</Styled>
            <TextField value={dialog.typed.value} caret={dialog.typed.caret} width={Math.max(4, width - displayWidth(prompt))} origin={{ x: displayWidth(prompt), y: top + text.length + 1 }} />
          </Box>
        )
        : <Styled tone="dim">{cut(hintFor(['yes', 'cancel'], 'confirm', words), width)}</Styled>}
    </Box>
  );
}
