/**
 * The screen's few colours, or none at all when NO_COLOR is set (https://no-color.org). With no
 * colour, the screen leans on marks and words (`>` for the cursor, `!` for overdue) and keeps
 * bold and inverse out. It must never be the only way a thing is told apart. Where colour is
 * on but the terminal has none (TERM=dumb, FORCE_COLOR=0), Ink's colour library writes none.
 */
import type { Tone } from '../person/record-lines.js';
import type { StateTone } from '../person/state-tones.js';

export interface Theme {
  readonly color: boolean;
  /** Titles, the focused pane's frame. */
  readonly accent: string | undefined;
  /** Refusals, overdue dates. */
  readonly warn: string | undefined;
  /** Done, approved. */
  readonly good: string | undefined;
  /** Hints and secondary text. */
  readonly dim: boolean;
  /** The cursor's row. */
  readonly inverse: boolean;
  readonly bold: boolean;
  /** Each state's colour by its place (the first state's is the terminal's own). */
  readonly states: Readonly<Record<StateTone, string | undefined>>;
  /** A key in the hints, set apart from what it does. */
  readonly key: string | undefined;
}

/**
 * Only the eight colours every terminal has (16 with their bright forms): a 16-colour terminal, or
 * one that maps them to its palette, shows the same. Names the theme's reader sees as they are.
 */
const STATES: Record<StateTone, string | undefined> = { start: undefined, busy: 'yellow', gate: 'magenta', end: 'green' };
const NONE: Record<StateTone, undefined> = { start: undefined, busy: undefined, gate: undefined, end: undefined };

/** The colour of a tone, if the theme has one for it. */
export function toneColor(theme: Theme, tone: Tone): string | undefined {
  switch (tone) {
    case 'warn': return theme.warn;
    case 'good': return theme.good;
    case 'head': case 'title': return theme.accent;
    case 'key': return theme.key;
    case 'state-start': return theme.states.start;
    case 'state-busy': return theme.states.busy;
    case 'state-gate': return theme.states.gate;
    case 'state-end': return theme.states.end;
    case 'dim': case 'plain': return undefined;
    default: {
      const never: never = tone;
      throw new Error(`unknown tone ${String(never)}`);
    }
  }
}

export function makeTheme(env: NodeJS.ProcessEnv = process.env): Theme {
  const color = env.NO_COLOR === undefined || env.NO_COLOR === '';
  return color
    ? { color, accent: 'cyan', warn: 'red', good: 'green', dim: true, inverse: true, bold: true, states: STATES, key: 'cyan' }
    : { color, accent: undefined, warn: undefined, good: undefined, dim: false, inverse: false, bold: false, states: NONE, key: undefined };
}
