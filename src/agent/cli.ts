/**
 * `binder`, the agent's command: read the command line, find the folder, ask, print the answer
 * (or, with --url, ask over HTTP: remote-ask.ts). Exit codes: 0 done, 1 refused, 2 no folder
 * (or no token), 3 nobody keeps the binder, 64 not understood.
 * Text from the keeper is made terminal-safe before it reaches a terminal. This path must stay
 * light: it never loads the screen, zod or the MCP SDK.
 */
import { terminalSafe } from '../keeper/terminal-safe.js';
import { askKeeper, waitFromEnv } from './ask.js';
import { EXIT_NOT_UNDERSTOOD, readCommandLine } from './command-line.js';
import { findFolder, howToGetAFolder } from './find-folder.js';
import { askOverHttp, remoteOf, type RemoteOutcome } from './remote-ask.js';

export interface BinderIO {
  out(text: string): void;
  err(text: string): void;
  /** Whether stdout and stderr are terminals: then agent-written text is made safe. Read only when needed. */
  outIsTerminal: boolean;
  errIsTerminal: boolean;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export const EXIT = { done: 0, refused: 1, noFolder: 2, nobody: 3 } as const;

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

  const options = { want: asked.json ? 'json' as const : undefined, waitMs: waitFromEnv(io.env) };
  // Over HTTP (--url or $BINDER_URL), or through the folder.
  const remote = remoteOf(asked, io.env);
  if (remote && 'problem' in remote) {
    say(remote.problem);
    return EXIT.noFolder;
  }
  let answer: RemoteOutcome;
  if (remote) answer = await askOverHttp(remote, asked.op, asked.args, options);
  else {
    const found = findFolder({ dir: asked.dir, env: io.env, cwd: io.cwd });
    if (!found.found) {
      say(howToGetAFolder(found.why));
      return EXIT.noFolder;
    }
    answer = await askKeeper(found.folder, asked.op, asked.args, options);
  }
  switch (answer.outcome) {
    case 'answered':
      if (!answer.ok) {
        say(`Not done: ${answer.text}`);
        return answer.understood === false ? EXIT_NOT_UNDERSTOOD : EXIT.refused;
      }
      if (asked.json) io.out(`${jsonDocument(answer.data !== undefined ? answer.data : { text: answer.text })}\n`);
      else if (answer.text) io.out(line(shown(answer.text, () => io.outIsTerminal)));
      return EXIT.done;
    case 'nobody':
      say(answer.text);
      return EXIT.nobody;
    case 'no-folder':
      say(answer.text);
      return EXIT.noFolder;
    default: {
      const never: never = answer;
      throw new Error(`unknown outcome ${JSON.stringify(never)}`);
    }
  }
}
