/**
 * One ask and its answer: append the ask to the folder, then wait on file events (with a slow
 * safety poll) for the keeper's answer, up to WAIT_MS — longer by as much as an ask the keeper
 * may hold open says on its line (a wait). The line says until when it waits; a keeper never
 * starts it later, so no answer where no keeper beat means nothing done — where one beat, the
 * outcome is not known, and said so. It never writes the binder and never waits when the keeper's
 * heartbeat already says nobody keeps the folder.
 */
import { watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { ANSWERS_FILE, LINE_MAX, WAIT_MS, heartbeatSaysNobody, type AskLine, type AskOutcome } from '../keeper/protocol.js';
import { newAskId } from './ask-id.js';
import { AnswersSince, answersLook, appendAsk, heartbeatThere, readHeartbeat } from './folder-files.js';
import { holdOf } from '../keeper/durations.js';
import { sentenceIn } from '../keeper/answer-steps.js';
import type { Sentence } from '../store/index.js';

export type { AskOutcome };

export interface AskOptions {
  want?: 'json' | undefined;
  waitMs?: number;
  now?: () => number;
  newId?: () => string;
}

/** The safety poll, for file events lost or never delivered (network folders, full inotify). */
const POLL_MS = 250;

const KEEPERS = '`binder serve`, `binder tui`, or the application that runs Binder';
export const NOBODY_NOW =
  `Nobody keeps this binder right now: its keeper (${KEEPERS}) is not running. ` +
  'Nothing was changed; ask a person to start it.';
export const NOBODY_IN_TIME =
  `No answer in time: nobody keeps this binder right now (${KEEPERS}). ` +
  'Nothing was changed; ask a person to start it, or try again.';

/** What `binder` and `binder-mcp` say first when no answer came while a keeper kept the folder. */
export const NOT_KNOWN =
  'Not known whether this was done: no answer came in time, and the keeper may have done it without its answer reaching you.';

/** How long to wait: `BINDER_WAIT_MS` when it is a positive whole number, else WAIT_MS. */
export function waitFromEnv(env: NodeJS.ProcessEnv): number {
  const given = env.BINDER_WAIT_MS;
  if (given && /^\d+$/.test(given) && Number(given) > 0) return Number(given);
  return WAIT_MS;
}

/** 65536 as 65,536 (Intl is not loaded on the agent's path for this). */
const grouped = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** The answer to ask `id` in one line of the answers file, if it is that. */
function answerIn(line: string, id: string): AskOutcome | null {
  let answer: unknown;
  try {
    answer = JSON.parse(line);
  } catch {
    return null;
  }
  if (!answer || typeof answer !== 'object' || (answer as { ask?: unknown }).ask !== id) return null;
  const { ok, text, data, steps, sentence } = answer as { ok?: unknown; text?: unknown; data?: unknown; steps?: unknown; sentence?: unknown };
  const said = typeof text === 'string' ? text : String(text ?? '');
  // Its steps as data, for a face that writes them its own way (MCP): put back in their places in
  // the text, or (from a keeper that wrote the sentence whole) read as it is, checked there.
  const words = Array.isArray(sentence) ? sentence as Sentence : sentenceIn(said, steps);
  return {
    outcome: 'answered',
    ok: ok === true,
    text: said,
    ...(data !== undefined ? { data } : {}),
    ...(words ? { sentence: words } : {}),
  };
}

/** Asks the keeper of `folder` to do `op` with `args`, and waits for its answer. */
export async function askKeeper(
  folder: string,
  op: string,
  args: Record<string, unknown>,
  { want, waitMs = WAIT_MS, now = Date.now, newId = newAskId }: AskOptions = {},
): Promise<AskOutcome> {
  const id = newId();
  // An ask the keeper may hold open (a wait) says how long, and is waited for that much longer.
  const hold = holdOf(op, args);
  // The line says when this asker stops waiting: a keeper that comes later answers "too late"
  // and does nothing, which is what makes "nothing was changed" below true.
  const at = now();
  const ask: AskLine = {
    id, at: new Date(at).toISOString(), op, args, ...(want ? { want } : {}), ...(hold ? { wait: hold } : {}),
    until: new Date(at + waitMs + hold).toISOString(),
  };
  const line = `${JSON.stringify(ask)}\n`;
  const size = Buffer.byteLength(line) - 1;
  if (size > LINE_MAX) {
    return {
      outcome: 'too-long',
      text: `This ask is ${grouped(size)} bytes long, over the ${grouped(LINE_MAX)} bytes (64 KiB) a keeper reads: it was not sent, and nothing was changed. Make it shorter (a long text can go in several notes).`,
    };
  }
  // An answer could never be read from there: said at once, not after the whole wait.
  const look = answersLook(folder);
  if ('problem' in look) return { outcome: 'no-folder', text: look.problem };
  const beat = readHeartbeat(folder);
  // A heartbeat read is one there; where none could be read, anything at its name counts.
  const kept = beat !== null || heartbeatThere(folder);
  if (heartbeatSaysNobody(beat, now())) return { outcome: 'nobody', text: NOBODY_NOW };

  // Marked before the ask is written (as the file was looked at above): its answer can only come after.
  const answers = new AnswersSince(join(folder, ANSWERS_FILE), look.seen);
  const written = appendAsk(folder, line);
  if (!written.written) return { outcome: 'no-folder', text: written.why };

  return new Promise<AskOutcome>((resolve) => {
    let watcher: FSWatcher | null = null;
    let finished = false;
    const finish = (outcome: AskOutcome): void => {
      if (finished) return;
      finished = true;
      clearInterval(poll);
      clearTimeout(deadline);
      watcher?.close();
      resolve(outcome);
    };
    const look = (): void => {
      if (finished) return;
      for (const line of answers.read()) {
        const found = answerIn(line, id);
        if (found) return finish(found);
      }
      if (answers.more) setImmediate(look);
    };
    const poll = setInterval(look, POLL_MS);
    const deadline = setTimeout(() => {
      look();
      // No keeper beat here before or after: none started the ask in time, nor will one later
      // (it never starts an ask past its `until`). One that did beat may have done it.
      finish(!kept && !heartbeatThere(folder) ? { outcome: 'nobody', text: NOBODY_IN_TIME } : { outcome: 'unknown', id, text: NOT_KNOWN });
    }, waitMs + hold);
    try {
      watcher = watch(folder, { persistent: true }, (_event, name) => {
        if (!name || String(name) === ANSWERS_FILE) look();
      });
      watcher.on('error', () => {
        watcher?.close();
        watcher = null;
      });
    } catch {
      // No file events here: the poll alone finds the answer.
    }
    look();
  });
}
