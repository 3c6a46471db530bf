/**
 * `binder`, the agent's command: read the command line, find the folder, ask, print the answer
 * (or, with --url, ask over HTTP: remote-ask.ts).
 * Exit codes: 0 done, 1 refused, 2 no folder (or no token), 3 nobody keeps the binder (nothing was
 * changed), 64 not understood, 75 not known whether it was done (EX_TEMPFAIL: ask again with --ask-id).
 * Every text it prints is made terminal-safe, whatever stdout and stderr are (a pipe to `less -R`
 * or a person's screen is a terminal too); `--json` is exact, its controls escaped. This path must
 * stay light: it never loads the screen, zod or the MCP SDK.
 */
import { jsonDocument } from '../keeper/json-document.js';
import { safeAnswer, safeSentence } from '../keeper/terminal-safe.js';
import { asWritten } from '../keeper/text-values.js';
import { askKeeper, waitFromEnv } from './ask.js';
import { EXIT_NOT_UNDERSTOOD, readCommandLine } from './command-line.js';
import { findFolder, howToGetAFolder } from './find-folder.js';
import { askOverHttp, remoteOf, type RemoteOutcome } from './remote-ask.js';

export interface BinderIO {
  out(text: string): void;
  err(text: string): void;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export const EXIT = { done: 0, refused: 1, noFolder: 2, nobody: 3, unknown: 75 } as const;

const line = (text: string): string => (text.endsWith('\n') ? text : `${text}\n`);

/** Runs one `binder` command line and resolves with its exit code. */
export async function runBinder(argv: readonly string[], io: BinderIO): Promise<number> {
  // A sentence on stderr: what it quotes never starts a line of its own.
  const say = (text: string): void => io.err(line(asWritten(safeSentence(text))));

  // Commander's own words quote what was typed.
  const asked = await readCommandLine(argv, { out: (text) => io.out(safeAnswer(text)), err: (text) => io.err(safeAnswer(text)) });
  if (asked.kind === 'done') return asked.code;

  const options = {
    want: asked.json ? 'json' as const : undefined,
    waitMs: waitFromEnv(io.env),
    ...(asked.askId !== undefined ? { newId: () => asked.askId! } : {}),
  };
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
      else if (answer.text) io.out(line(asWritten(safeAnswer(answer.text))));
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
