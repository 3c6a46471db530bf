/**
 * What the folder pump's steps (read, take, answer, compact) share: its dependencies, its folders,
 * its log, and the little it keeps between passes. Made once by `createFolderPump`; each step is
 * a plain function of it, so that a reader follows one step in one file. Types and the answer line.
 */
import type { Store } from '../store/index.js';
import type { SideConfig } from './keeper-types.js';
import type { Answer } from './protocol.js';
import { stepsOrSentence } from './answer-steps.js';
import { commandStep } from './step-words.js';
import type { Ask } from './folder-lines.js';
import type { AnswersMark } from './folder-answers.js';
import type { FolderSet } from './folder-set.js';
import type { Folder, PumpDeps } from './pump-types.js';

export interface PumpContext {
  deps: PumpDeps;
  store: Store;
  set: FolderSet;
  /** One line of the keeper's log. */
  say(line: string): void;
  /** The ledger keys of the folders this keeper keeps now (PostgreSQL: those whose lock it holds). */
  kept: Set<string>;
  listeners: Set<(side: SideConfig, op: string, answer: Answer) => void>;
  /** Asks for another pass soon (more lines are waiting). */
  schedule(): void;
  /** Every unanswered ask was looked for once, at the first pass. */
  recoveredAll: boolean;
  /** When the ledger was last swept of forgotten asks. */
  sweptAt: number;
  /** Where this keeper's last append left each folder's answers file (by ledger key), once recorded or to be. */
  answersLeft: Map<string, AnswersMark>;
  /** Answers appended whose ledger marks wait for the pump's next transaction (by ledger key). */
  untold: Map<string, Untold>;
  /** Asks for those marks to be written soon, in a transaction of their own if no other comes. */
  settleSoon(): void;
}

/** Answers appended and not yet marked told in the ledger, and the answers file's mark after them. */
export interface Untold extends AnswersMark { ids: readonly string[]; at: number }

/** An answer delivered: counted, and told to whoever listens (a listener's failure is only said). */
export function told(pump: PumpContext, folder: Folder, op: string, answer: Answer): void {
  folder.status.answered++;
  for (const listener of pump.listeners) {
    try {
      listener(folder.side, op, answer);
    } catch (error) {
      pump.say(`a listener of answers failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** An ask's answer as its line of answers.jsonl (with its data when asked for, and its steps as data). */
export function answerLine(pump: PumpContext, ask: Ask, answer: Answer, now: number): string {
  const text = String(answer.text);
  const line = { ask: ask.id, at: new Date(now).toISOString(), ok: answer.ok === true, text, ...stepsOrSentence(text, answer.sentence, commandStep) };
  if (ask.want === 'json' && answer.data !== undefined) {
    try {
      return JSON.stringify({ ...line, data: answer.data });
    } catch {
      pump.say(`the data of an answer (${ask.op ?? ''}) cannot be written as JSON: answered with its text alone`);
    }
  }
  return JSON.stringify(line);
}
