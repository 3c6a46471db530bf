/**
 * The screen's few colours, or none at all when NO_COLOR is set (https://no-color.org). With no
 * colour, the screen leans on marks and words (`>` for the cursor, `!` for overdue) and keeps
 * bold and inverse out. It must never be the only way a thing is told apart.
 */

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
}

export function makeTheme(env: NodeJS.ProcessEnv = process.env): Theme {
  const color = env.NO_COLOR === undefined || env.NO_COLOR === '';
  return color
    ? { color, accent: 'cyan', warn: 'red', good: 'green', dim: true, inverse: true, bold: true }
    : { color, accent: undefined, warn: undefined, good: undefined, dim: false, inverse: false, bold: false };
}
