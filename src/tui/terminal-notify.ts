/**
 * A terminal's own notification (a banner or a sound outside the screen), where the terminal is
 * known to show one: OSC 9 (iTerm2, Windows Terminal, WezTerm, kitty, ConEmu) or OSC 777
 * (rxvt-unicode, foot, ghostty, WezTerm, VTE's), chosen by TERM_PROGRAM and TERM; none on a
 * terminal not known, where the sequence could be drawn as text. Inside tmux it is passed through
 * to the terminal outside (DCS passthrough, every ESC doubled). What it says is made plain first:
 * no control character of a record's title ever reaches the terminal.
 */
import { terminalSafe } from '../keeper/terminal-safe.js';

export type NotifyKind = 'osc9' | 'osc777';

const ESC = '\u001b';
const BEL = '\u0007';
/** A notification's text is short: a banner shows a line or two. */
const MAX = 200;

const BY_PROGRAM: Readonly<Record<string, NotifyKind>> = {
  'iTerm.app': 'osc9',
  'WezTerm': 'osc777',
  'ghostty': 'osc777',
  'vscode': 'osc9',
};

/** The kind of notification the terminal shows, or null when it is not known to show one. */
export function notifyKindFor(env: NodeJS.ProcessEnv): NotifyKind | null {
  const program = env.TERM_PROGRAM ?? '';
  // Inside tmux TERM_PROGRAM is tmux's own: the terminal outside is known by what tmux kept of it.
  const outer = program === 'tmux' ? (env.LC_TERMINAL ?? '') : program;
  const known = BY_PROGRAM[outer];
  if (known) return known;
  if (env.WT_SESSION) return 'osc9'; // Windows Terminal
  if (env.KITTY_WINDOW_ID) return 'osc9';
  if (env.VTE_VERSION) return 'osc777'; // GNOME Terminal and the other VTE terminals
  const term = env.TERM ?? '';
  if (/^(rxvt|foot|xterm-ghostty|wezterm)/.test(term)) return 'osc777';
  if (/^xterm-kitty/.test(term)) return 'osc9';
  return null;
}

/** Plain text for inside an OSC: no control character, no `;` (777 splits on it), cut short. */
export function plain(text: string): string {
  // eslint-disable-next-line no-control-regex
  const flat = terminalSafe(String(text)).replace(/[\u0000-\u001f\u007f-\u009f]/g, '').replace(/;/g, ',').trim();
  return [...flat].slice(0, MAX).join('');
}

/** The sequence that shows `body` under `title`, wrapped for tmux when `tmux`. */
export function notifySequence(kind: NotifyKind, title: string, body: string, tmux: boolean): string {
  const osc = kind === 'osc9'
    ? `${ESC}]9;${plain(`${title}: ${body}`)}${BEL}`
    : `${ESC}]777;notify;${plain(title)};${plain(body)}${BEL}`;
  return tmux ? `${ESC}Ptmux;${osc.replaceAll(ESC, ESC + ESC)}${ESC}\\` : osc;
}

/** What writes a notification to the terminal, or null where there is none to write (unknown terminal, or turned off). */
export function terminalNotifier(env: NodeJS.ProcessEnv, on: boolean, write: (sequence: string) => void): ((title: string, body: string) => void) | null {
  const kind = on ? notifyKindFor(env) : null;
  if (!kind) return null;
  const tmux = Boolean(env.TMUX);
  return (title, body) => write(notifySequence(kind, title, body, tmux));
}
