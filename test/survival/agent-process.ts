/**
 * An agent as a process of its own, for the kill tests and the soak: it adds records, moves them
 * and notes on them, either by raw ask lines (several in flight) or by running `binder` for each,
 * and reports as JSON on stdout every ask it made and the answers it read. It checks nothing
 * itself beyond what an asker sees; it never opens the store.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, closeSync, fstatSync, openSync, readSync, watch } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ANSWERS_FILE, ASKS_FILE } from '../../src/keeper/protocol.js';

export const AGENT_ENV = 'BINDER_SURVIVAL_AGENT';
export const AGENT_SCRIPT = fileURLToPath(import.meta.url);
export const STATES = ['To do', 'Doing', 'Review', 'Done'] as const;

export interface AgentPlan {
  dir: string;
  /** The prefix of its ask ids and titles (unique among agents). */
  name: string;
  asks: number;
  /** Raw lines with up to `window` asks in flight, or one `binder` process per ask. */
  mode: 'raw' | 'binder';
  window: number;
  seed: number;
  binder: string;
  /** Give up on an answer after this long without any (ms). */
  patience: number;
}

export interface AskMade { id: string; op: 'add' | 'move' | 'note'; record: number | null; state?: string; text?: string }
export interface AgentReport {
  name: string;
  mode: AgentPlan['mode'];
  made: AskMade[];
  /** Ask id → the answer's ok and text. */
  answered: Record<string, { ok: boolean; text: string }>;
  /** Ids answered a second time in one answers file. */
  twice: string[];
  /** Answer lines for ids this agent never sent. */
  strangers: number;
  /** Ids that got no answer in time (or a `binder` that said nobody keeps the binder). */
  lost: string[];
  /**
   * Lines a keeper killed while writing them left unfinished (a write cut at a page by SIGKILL),
   * ended by the next keeper before its own: skipped, as `binder` skips them (agent/ask.ts).
   */
  unfinished: number;
}

/** A small seeded generator, so a failing run can be played again. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The next ask: an add when nothing is known yet, else an add, a move or a note on a known record. */
function choose(plan: AgentPlan, seq: number, rand: () => number, records: number[]): AskMade {
  const id = `${plan.name}-${seq}`;
  const pick = rand();
  if (records.length === 0 || pick < 0.4) return { id, op: 'add', record: null };
  const record = records[Math.floor(rand() * records.length)]!;
  if (pick < 0.7) return { id, op: 'move', record, state: STATES[Math.floor(rand() * STATES.length)]! };
  return { id, op: 'note', record, text: `note ${id}` };
}

const argsOf = (ask: AskMade): Record<string, unknown> =>
  ask.op === 'add' ? { list: 'tasks', title: ask.id }
    : ask.op === 'move' ? { id: ask.record, state: ask.state }
      : { id: ask.record, text: ask.text };

const addedRecord = (text: string): number | null => {
  const found = /^Added #(\d+) /.exec(text);
  return found ? Number(found[1]) : null;
};

/**
 * Reads the answers file as it grows; a replaced or shorter file is read from its start. A line
 * that is no JSON (left unfinished by a keeper killed while writing it) is counted and skipped.
 */
export class AnswersReader {
  private key = '';
  private offset = 0;
  private carry = '';
  private inFile = new Set<string>();
  unfinished = 0;
  constructor(private readonly path: string, private readonly each: (id: string, ok: boolean, text: string, again: boolean) => void) {}
  read(): void {
    let fd: number;
    try {
      fd = openSync(this.path, 'r');
    } catch {
      return;
    }
    try {
      const stat = fstatSync(fd);
      const key = `${stat.dev}:${stat.ino}`;
      if (key !== this.key || stat.size < this.offset) Object.assign(this, { key, offset: 0, carry: '', inFile: new Set<string>() });
      if (stat.size <= this.offset) return;
      const buffer = Buffer.alloc(stat.size - this.offset);
      const got = readSync(fd, buffer, 0, buffer.length, this.offset);
      this.offset += got;
      const lines = (this.carry + buffer.subarray(0, got).toString('utf8')).split('\n');
      this.carry = lines.pop() ?? '';
      for (const line of lines) {
        if (!line) continue;
        const answer = parsed(line);
        if (!answer) {
          this.unfinished++;
          continue;
        }
        this.each(answer.ask, answer.ok, answer.text, this.inFile.has(answer.ask));
        this.inFile.add(answer.ask);
      }
    } finally {
      closeSync(fd);
    }
  }
}

function parsed(line: string): { ask: string; ok: boolean; text: string } | null {
  try {
    return JSON.parse(line) as { ask: string; ok: boolean; text: string };
  } catch {
    return null;
  }
}

async function rawAgent(plan: AgentPlan, report: AgentReport): Promise<void> {
  const rand = random(plan.seed);
  const records: number[] = [];
  const waiting = new Map<string, AskMade>();
  const reader = new AnswersReader(join(plan.dir, ANSWERS_FILE), (id, ok, text, again) => {
    if (again) report.twice.push(id);
    const ask = waiting.get(id);
    if (!ask) {
      if (!report.answered[id]) report.strangers++;
      return;
    }
    waiting.delete(id);
    report.answered[id] = { ok, text };
    if (ask.op === 'add' && ok) {
      ask.record = addedRecord(text);
      if (ask.record !== null) records.push(ask.record);
    }
  });
  let wake: (() => void) | null = null;
  const watcher = watch(plan.dir, { persistent: false }, () => wake?.());
  let seq = 0;
  let heard = Date.now();
  try {
    while (seq < plan.asks || waiting.size) {
      while (waiting.size < plan.window && seq < plan.asks) {
        const ask = choose(plan, seq++, rand, records);
        report.made.push(ask);
        waiting.set(ask.id, ask);
        appendFileSync(join(plan.dir, ASKS_FILE), `${JSON.stringify({ id: ask.id, at: new Date().toISOString(), op: ask.op, args: argsOf(ask) })}\n`);
      }
      const before = waiting.size;
      reader.read();
      if (waiting.size < before) heard = Date.now();
      else if (Date.now() - heard > plan.patience) break;
      else await new Promise<void>((done) => { wake = done; setTimeout(done, 25); });
      wake = null;
    }
  } finally {
    watcher.close();
  }
  // A last read: an answer twice shows only if it came.
  reader.read();
  report.lost.push(...waiting.keys());
  report.unfinished = reader.unfinished;
}

function binderAgent(plan: AgentPlan, report: AgentReport): void {
  const rand = random(plan.seed);
  const records: number[] = [];
  for (let seq = 0; seq < plan.asks; seq++) {
    const ask = choose(plan, seq, rand, records);
    report.made.push(ask);
    const words = ask.op === 'add' ? ['add', 'Tasks', ask.id]
      : ask.op === 'move' ? ['move', String(ask.record), ask.state!]
        : ['note', String(ask.record), ask.text!];
    const run = spawnSync(process.execPath, [plan.binder, ...words, '--dir', plan.dir], {
      encoding: 'utf8', env: { ...process.env, BINDER_WAIT_MS: String(plan.patience) }, timeout: plan.patience + 30_000,
    });
    if (run.status !== 0 && run.status !== 1) {
      report.lost.push(ask.id);
      continue;
    }
    const text = (run.status === 0 ? run.stdout : run.stderr).trim();
    report.answered[ask.id] = { ok: run.status === 0, text };
    if (ask.op === 'add' && run.status === 0) {
      ask.record = addedRecord(text);
      if (ask.record !== null) records.push(ask.record);
    }
  }
}

async function main(plan: AgentPlan): Promise<void> {
  const report: AgentReport = { name: plan.name, mode: plan.mode, made: [], answered: {}, twice: [], strangers: 0, lost: [], unfinished: 0 };
  if (plan.mode === 'raw') await rawAgent(plan, report);
  else binderAgent(plan, report);
  process.stdout.write(JSON.stringify(report));
}

if (process.env[AGENT_ENV]) await main(JSON.parse(process.env[AGENT_ENV]) as AgentPlan);
