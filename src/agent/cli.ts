/**
 * `binder`, the agent's command: read the command line, find the folder, ask, print the answer.
 * Exit codes: 0 done, 1 refused, 2 no folder, 3 nobody keeps the binder (nothing was changed),
 * 64 not understood, 75 not known whether it was done (EX_TEMPFAIL: ask again with --ask-id).
 * Text from the keeper is made terminal-safe before it reaches a terminal. This path must stay
 * light: it never loads the screen, zod or the MCP SDK.
 */
import { terminalSafe } from '../keeper/terminal-safe.js';
import { askKeeper, waitFromEnv } from './ask.js';
import { EXIT_NOT_UNDERSTOOD, readCommandLine } from './command-line.js';
import { findFolder, howToGetAFolder } from './find-folder.js';

export interface BinderIO {
  out(text: string): void;
  err(text: string): void;
  /** Whether stdout and stderr are terminals: then agent-written text is made safe. Read only when needed. */
  outIsTerminal: boolean;
  errIsTerminal: boolean;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export const EXIT = { done: 0, refused: 1, noFolder: 2, nobody: 3, unknown: 75 } as const;

// Characters JSON.stringify leaves raw but a terminal may act on (C1 controls, bidirectional
// controls) or a JavaScript reader may split on (line separators); escaped, the value is the same.
const UNESCAPED = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `value` as one line of JSON with every control character \u-escaped. */
export function jsonDocument(value: unknown): string {
  return (JSON.stringify(value ?? null) ?? 'null').replace(UNESCAPED, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const line = (text: string): string => (text.endsWith('\n') ? text : `${text}\n`);

/** Runs one `binder` command line and resolves with its exit code. */
export async function runBinder(argv: readonly string[], io: BinderIO): Promise<number> {
  // Whether a stream is a terminal is asked only when the text would change: it costs a look.
  const shown = (text: string, terminal: () => boolean): string => {
    const safe = terminalSafe(text, { multiline: true });
    return safe !== text && terminal() ? safe : text;
  };
  const say = (text: string): void => io.err(line(shown(text, () => io.errIsTerminal)));

  const asked = await readCommandLine(argv, { out: io.out, err: io.err });
  if (asked.kind === 'done') return asked.code;

  const found = findFolder({ dir: asked.dir, env: io.env, cwd: io.cwd });
  if (!found.found) {
    say(howToGetAFolder(found.why));
    return EXIT.noFolder;
  }
  const answer = await askKeeper(found.folder, asked.op, asked.args, {
    want: asked.json ? 'json' : undefined,
    waitMs: waitFromEnv(io.env),
    ...(asked.askId !== undefined ? { newId: () => asked.askId! } : {}),
  });
  switch (answer.outcome) {
    case 'answered':
      if (!answer.ok) {
        say(`Not done: ${answer.text}`);
        return EXIT.refused;
      }
      if (asked.json) io.out(`${jsonDocument(answer.data !== undefined ? answer.data : { text: answer.text })}\n`);
      else if (answer.text) io.out(line(shown(answer.text, () => io.outIsTerminal)));
      return EXIT.done;
    case 'nobody':
      say(answer.text);
      return EXIT.nobody;
    case 'unknown':
      say(`${answer.text} Ask again with the same id, and the keeper answers it without doing it twice: the same command with --ask-id ${answer.id}. Or look first: binder get, binder show.`);
      return EXIT.unknown;
    case 'no-folder':
      say(answer.text);
      return EXIT.noFolder;
    case 'too-long':
      say(answer.text);
      return EXIT_NOT_UNDERSTOOD;
    default: {
      const never: never = answer;
      throw new Error(`unknown outcome ${JSON.stringify(never)}`);
    }
  }
}
