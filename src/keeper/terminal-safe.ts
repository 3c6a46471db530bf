/**
 * Text written by agents, made safe to show on a person's terminal: no escape sequence, no
 * control character, no bidirectional override can pass. Every face that prints a record's
 * text (the screen, `binder`, `binder admin`) goes through here. It must never let a byte of
 * a control sequence through, even from a sequence left unterminated, nor let one line's text
 * swallow the next.
 */

// ESC-introduced sequences: CSI (ESC [ … final), OSC/DCS/SOS/PM/APC (ESC ] P X ^ _ … up to BEL or
// ST, or to the end of its line when never terminated), and two-byte escapes (ESC c, ESC 7…).
// A string left open ends with its line: one agent's text must never swallow the lines after it
// (other records, a history) in an answer made safe whole.
const ESCAPES =
  /\u001b\[[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]?|\u001b[\]PX^_][^\r\n]*?(?:\u0007|\u001b\\|\u009c|(?=[\r\n])|$)|\u001b[\u0020-\u002f]*[\u0030-\u007e]?/g;
// The same introduced by 8-bit C1 codes: CSI (0x9b), OSC (0x9d), DCS (0x90), SOS/PM/APC.
const C1_SEQUENCES = /\u009b[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]?|[\u009d\u0090\u0098\u009e\u009f][^\r\n]*?(?:\u0007|\u009c|\u001b\\|(?=[\r\n])|$)/g;
// What is left of control characters (C0 but newline, DEL, C1) and bidirectional controls.
const CONTROL_CLASS = '\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069';
const CONTROLS = new RegExp(`[${CONTROL_CLASS}]`, 'g');
const NEWLINES = /\r\n?|\n/g;
// Any character the replacements below would touch: a text with none is safe as it is. A newline
// alone is left as it is where lines are kept: every answer of several lines has some, and the
// five replacements cost an answer of a page ~50 µs for nothing.
const TOUCHED = new RegExp(`[\n${CONTROL_CLASS}]`);
const TOUCHED_LINES = new RegExp(`[${CONTROL_CLASS}]`);

/**
 * `text` with every control sequence and character taken out. Tabs become a space. With
 * `multiline`, newlines are kept (a note); without, they become a space (a title, a cell).
 */
export function terminalSafe(text: string, options: { multiline?: boolean } = {}): string {
  if (!(options.multiline ? TOUCHED_LINES : TOUCHED).test(text)) return String(text);
  const flat = String(text)
    .replace(ESCAPES, '')
    .replace(C1_SEQUENCES, '')
    .replace(/\t/g, ' ')
    .replace(NEWLINES, options.multiline ? '\n' : ' ');
  return flat.replace(CONTROLS, (c) => (c === '\n' ? c : ''));
}

/** A carriage return alone: a terminal goes back over the line with it, so it is shown, not obeyed. */
const LONE_CR = /\r(?!\n)/g;

/**
 * A whole answer as a face prints it, whatever it prints to (a terminal, a pipe, a file, an MCP
 * client): its lines kept, every control and sequence out, a carriage return alone shown as ⏎.
 */
export function safeAnswer(text: string): string {
  const said = String(text);
  return terminalSafe(said.includes('\r') ? said.replace(LONE_CR, '⏎') : said, { multiline: true });
}

/**
 * A sentence (a refusal, a diagnostic) as a face prints it: made safe as an answer, and any line
 * after its first indented, so that nothing it quotes can pass for a line of its own.
 */
export function safeSentence(text: string): string {
  return safeAnswer(text).replace(/\n(?=.)/g, '\n  ');
}
