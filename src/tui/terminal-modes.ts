/**
 * What the screen asks of the terminal while it runs (its own screen, pastes marked as pastes,
 * mouse reports unless told not to), and gives back on every way out: `q`, Ctrl-C, a crash, a
 * signal, and Ctrl-Z (taken again at `fg`). Written straight to the terminal's file descriptor,
 * so it still works from an exit handler. It never leaves a mode on that it turned on.
 */
import { writeSync } from 'node:fs';
import { PASTE_OFF, PASTE_ON } from './input-events.js';

export const ALT_SCREEN_ON = '\u001b[?1049h';
export const ALT_SCREEN_OFF = '\u001b[?1049l';
/** Clicks and the wheel (1000), reported in SGR form (1006), which has no limit on the column. */
export const MOUSE_ON = '\u001b[?1000h\u001b[?1006h';
export const MOUSE_OFF = '\u001b[?1006l\u001b[?1000l';
export const CURSOR_SHOW = '\u001b[?25h';

export interface TerminalModes {
  mouse: boolean;
}

export const modesOn = ({ mouse }: TerminalModes): string => `${ALT_SCREEN_ON}${PASTE_ON}${mouse ? MOUSE_ON : ''}`;
export const modesOff = ({ mouse }: TerminalModes): string => `${mouse ? MOUSE_OFF : ''}${PASTE_OFF}${CURSOR_SHOW}${ALT_SCREEN_OFF}`;

export interface HeldTerminal {
  /** Turns the modes on (again). */
  enter(): void;
  /** Gives the terminal back as it was; again does nothing. */
  leave(): void;
}

/** The modes on `fd` (a terminal), given back when the process exits, however it exits. */
export function holdTerminal(fd: number, modes: TerminalModes): HeldTerminal {
  let held = false;
  const write = (text: string) => {
    try {
      writeSync(fd, text);
    } catch { /* the terminal is gone: nothing to give back */ }
  };
  const leave = () => {
    if (!held) return;
    held = false;
    write(modesOff(modes));
  };
  process.once('exit', leave);
  return {
    enter() {
      if (held) return;
      held = true;
      write(modesOn(modes));
    },
    leave,
  };
}
