/**
 * A minimal keeper written for the tests: it watches one folder's asks.jsonl and answers each
 * ask with whatever `reply` says (nothing when it returns null). Any keeper that speaks the
 * protocol must do for `binder` and `binder-mcp`; this one knows nothing of the real keeper.
 */
import { appendFileSync, readFileSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AskLine, Heartbeat } from '../../src/keeper/protocol.js';

export interface CannedAnswer { ok: boolean; text: string; data?: unknown }

export interface MiniKeeper {
  /** Every ask read, in order. */
  readonly asks: AskLine[];
  /** Writes keeper.json: a fresh beat unless told otherwise. */
  beat(beat?: Partial<Heartbeat>): void;
  stop(): void;
}

export function miniKeeper(folder: string, reply: (ask: AskLine) => CannedAnswer | null): MiniKeeper {
  const asks: AskLine[] = [];
  let offset = 0;
  const pump = (): void => {
    let bytes: Buffer;
    try { bytes = readFileSync(join(folder, 'asks.jsonl')); } catch { return; }
    const end = bytes.lastIndexOf(10) + 1;
    if (end <= offset) return;
    const lines = bytes.subarray(offset, end).toString('utf8').split('\n').filter(Boolean);
    offset = end;
    for (const line of lines) {
      const ask = JSON.parse(line) as AskLine;
      asks.push(ask);
      const answer = reply(ask);
      if (!answer) continue;
      const { data, ...said } = answer;
      const withData = ask.want === 'json' && data !== undefined ? { data } : {};
      appendFileSync(join(folder, 'answers.jsonl'), `${JSON.stringify({ ask: ask.id, at: new Date().toISOString(), ...said, ...withData })}\n`);
    }
  };
  const watcher = watch(folder, pump);
  const poll = setInterval(pump, 20);
  return {
    asks,
    beat: (beat = {}) => writeFileSync(join(folder, 'keeper.json'), JSON.stringify({
      keeper: 'binder', version: 'test', beat: new Date().toISOString(), every: 5000, stopped: false, ...beat,
    })),
    stop: () => { watcher.close(); clearInterval(poll); },
  };
}

/** The canned answers most tests use: refusals for `move … Done`, data for --json. */
export function cannedAnswer(ask: AskLine): CannedAnswer {
  if (ask.op === 'move' && ask.args.state === 'Done') return { ok: false, text: '#12 is not approved: a person approves it before it passes Approved.' };
  if (ask.op === 'lists') return { ok: true, text: 'batches  Batches  3 records  write', data: [{ id: 'batches', title: 'Batches', records: 3, access: 'write' }] };
  if (ask.op === 'get') return { ok: true, text: '#12 Dark mode\n\u001b]0;owned\u0007\u001b[31mred\u001b[0m \u009b2J note', data: { id: 12, title: 'Dark \u001b[31mmode\u009b' } };
  return { ok: true, text: `${ask.op} done`, data: { op: ask.op } };
}
