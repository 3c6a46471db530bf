/**
 * Promise 1's run, shared by the suite (5 kills over 1,000 asks) and the soak (20 over 10,000):
 * agent processes ask while `binder serve` is killed with SIGKILL at random moments and started
 * again; then every ask, answer, record and note is accounted for. Returns the figures and the
 * problems found (none when every promise held). It only ever kills keepers it started.
 */
import { spawn } from 'node:child_process';
import { BINDER } from '../helpers/processes.js';
import { until } from '../helpers/temp.js';
import { AGENT_ENV, AGENT_SCRIPT, random, type AgentPlan, type AgentReport } from './agent-process.js';
import { answeredTwice, count, integrity, makeBinder, residentBytes, startKeeper, track, type Keeping } from './harness.js';
import { dbOf } from '../helpers/sqlite-db.js';

export interface KillPlan {
  /** An empty folder of the run's own. */
  root: string;
  asks: number;
  kills: number;
  /** Agent processes; the last `binderAgents` of them run `binder` for each ask. */
  agents: number;
  binderAgents: number;
  /** Asks made by each `binder` agent (the raw agents share the rest). */
  binderAsks: number;
  seed: number;
  /** Keepers on the one store, all reading every folder (1 unless told); each kill takes the next in turn. */
  keepers?: number;
  say?: (line: string) => void;
}

export interface KillFigures {
  asks: number;
  kills: number;
  answered: number;
  lost: number;
  duplicated: number;
  /** Answer lines a kill left unfinished (skipped by the agents, as by `binder`). */
  unfinished: number;
  adds: number;
  records: number;
  notes: number;
  notesInStore: number;
  /** Records whose state a move set (each checked against its last move). */
  recordsMoved: number;
  refused: number;
  keeperPeakRss: number;
  /** Asks each keeper's slot said it answered (its log lines; answers given by recovery are not said). */
  answeredBy: number[];
  ms: number;
  integrity: string;
  /** At how many asks taken each kill came. */
  killedAt: number[];
  /** Kills that left asks done but not yet answered (between commit and answer). */
  killedUntold: number;
  keeperSaid: string[];
}

const pause = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

function runAgent(plan: AgentPlan): Promise<AgentReport> {
  return new Promise((done, fail) => {
    const child = track(spawn(process.execPath, [AGENT_SCRIPT], { env: { ...process.env, [AGENT_ENV]: JSON.stringify(plan) }, stdio: ['ignore', 'pipe', 'pipe'] }));
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => { out += c; });
    child.stderr.on('data', (c) => { err += c; });
    child.on('close', (code) => {
      if (code !== 0) fail(new Error(`agent ${plan.name} exited ${code}: ${err}`));
      else done(JSON.parse(out) as AgentReport);
    });
  });
}

export async function killRun(plan: KillPlan): Promise<{ figures: KillFigures; problems: string[] }> {
  const say = plan.say ?? (() => {});
  const started = Date.now();
  const { storeDir, store, dirs } = await makeBinder(plan.root, plan.agents);
  const problems: string[] = [];
  const keeperSaid: string[] = [];
  let peak = 0;
  // Not quiet: each keeper says a line per ask it answered, to count who did what.
  const start = () => startKeeper(storeDir, []);
  // Each slot's keeper, or the one starting in its place (the other slots' kills need not wait for it).
  const slots: { keeper: Keeping | null; starting: Promise<Keeping> }[] = [];
  for (let k = 0; k < (plan.keepers ?? 1); k++) {
    const keeper = await start();
    slots.push({ keeper, starting: Promise.resolve(keeper) });
  }
  const restart = (slot: (typeof slots)[number]) => {
    slot.keeper = null;
    slot.starting = start().then((keeper) => (slot.keeper = keeper));
    slot.starting.catch(() => {}); // met when awaited
  };
  const answeredBy = slots.map(() => 0);
  const said = (slot: number, keeper: Keeping) => {
    keeperSaid.push(...keeper.err().split('\n').filter(Boolean));
    answeredBy[slot]! += keeper.out().split('\n').filter((line) => / (done|refused): /.test(line)).length;
  };
  const rawAgents = plan.agents - plan.binderAgents;
  const rawAsks = plan.asks - plan.binderAgents * plan.binderAsks;
  const agents = dirs.map((dir, i): AgentPlan => {
    const binder = i >= rawAgents;
    const share = binder ? plan.binderAsks : Math.floor(rawAsks / rawAgents) + (i < rawAsks % rawAgents ? 1 : 0);
    return { dir, name: `a${i}`, asks: share, mode: binder ? 'binder' : 'raw', window: 4, seed: plan.seed + i, binder: BINDER, patience: 90_000 };
  });
  let finished = false;
  const reports = Promise.all(agents.map(runAgent)).finally(() => { finished = true; });

  // Kills at random points of the run: after so many asks were taken, plus a random few ms.
  const rand = random(plan.seed * 7919);
  const marks = Array.from({ length: plan.kills }, () => Math.floor(plan.asks * (0.05 + 0.85 * rand()))).sort((a, b) => a - b);
  const killedAt: number[] = [];
  let killedUntold = 0;
  const taken = () => count(store, 'SELECT count(*) FROM asks');
  while (!finished) {
    for (const { keeper } of slots) if (keeper) peak = Math.max(peak, residentBytes(keeper.pid) ?? 0);
    const next = marks[killedAt.length];
    const now = taken();
    if (next !== undefined && now >= next) {
      const slot = killedAt.length % slots.length;
      const keeper = await slots[slot]!.starting;
      await pause(Math.floor(rand() * 40));
      await keeper.kill();
      said(slot, keeper);
      killedAt.push(taken());
      const untold = count(store, 'SELECT count(*) FROM asks WHERE delivered = 0');
      if (untold) killedUntold++;
      say(`kill ${killedAt.length}/${plan.kills} at ${killedAt.at(-1)} asks taken, ${untold} done and not yet answered`);
      restart(slots[slot]!);
    } else {
      await Promise.race([reports.catch(() => {}), pause(20)]);
    }
  }
  const all = await reports;
  const keepers = await Promise.all(slots.map((slot) => slot.starting));
  await until(() => count(store, 'SELECT count(*) FROM asks WHERE delivered = 0') === 0, 30_000, 'every answer delivered');
  for (const [slot, keeper] of keepers.entries()) {
    peak = Math.max(peak, residentBytes(keeper.pid) ?? 0);
    const stopped = await keeper.stop();
    said(slot, keeper);
    if (stopped !== 0) problems.push(`a keeper stopped with ${stopped}`);
  }
  if (killedAt.length !== plan.kills) problems.push(`${killedAt.length} kills instead of ${plan.kills}: the agents finished first`);

  // Accounting: what the agents were told, against the store.
  const made = all.flatMap((r) => r.made);
  const answered = all.reduce((n, r) => n + Object.keys(r.answered).length, 0);
  const lost = all.flatMap((r) => r.lost);
  const twice = [...all.flatMap((r) => r.twice), ...dirs.flatMap(answeredTwice)];
  const strangers = all.reduce((n, r) => n + r.strangers, 0);
  // Each kill can cut one write short (the keeper writes one folder's answers at a time).
  const unfinished = all.reduce((n, r) => n + r.unfinished, 0);
  const ok = (r: AgentReport, id: string) => r.answered[id]?.ok === true;
  const adds = new Map<number, string>();
  const notes: string[] = [];
  const states = new Map<number, string>();
  let refused = 0;
  for (const r of all) {
    for (const ask of r.made) {
      if (!r.answered[ask.id]) continue;
      if (!ok(r, ask.id)) {
        refused++;
        continue;
      }
      if (ask.op === 'add') adds.set(ask.record!, ask.id);
      else if (ask.op === 'note') notes.push(ask.text!);
      else states.set(ask.record!, ask.state!);
    }
  }
  if (lost.length) problems.push(`${lost.length} asks never answered: ${lost.slice(0, 5).join(', ')}`);
  if (twice.length) problems.push(`${twice.length} answers given twice: ${twice.slice(0, 5).join(', ')}`);
  if (strangers) problems.push(`${strangers} answers to asks nobody made`);
  if (unfinished > killedAt.length) problems.push(`${unfinished} answer lines left unfinished by ${killedAt.length} kills`);
  if (made.length !== plan.asks) problems.push(`${made.length} asks made instead of ${plan.asks}`);
  if (refused) problems.push(`${refused} asks refused: ${all.flatMap((r) => r.made.filter((a) => r.answered[a.id] && !ok(r, a.id)).map((a) => r.answered[a.id]!.text)).slice(0, 3).join(' | ')}`);

  const rows = dbOf(store).prepare('SELECT id, title, state FROM records').all() as { id: number; title: string; state: string }[];
  const stateIds = new Map((await store.list('tasks', { id: 'person:Ann', kind: 'person', name: 'Ann' })).states.map((s) => [s.name, s.id]));
  if (rows.length !== adds.size) problems.push(`${rows.length} records for ${adds.size} adds answered done`);
  for (const row of rows) {
    if (adds.get(row.id) !== row.title) problems.push(`record #${row.id} "${row.title}" is not the one an add was told of`);
    const expected = stateIds.get(states.get(row.id) ?? 'To do');
    if (row.state !== expected) problems.push(`record #${row.id} is in ${row.state}, its last move said ${expected}`);
  }
  const stored = dbOf(store).prepare('SELECT text FROM notes').pluck().all() as string[];
  if (new Set(stored).size !== stored.length) problems.push(`${stored.length - new Set(stored).size} notes written twice`);
  if ([...stored].sort().join('\n') !== [...notes].sort().join('\n')) problems.push(`${stored.length} notes in the store for ${notes.length} notes answered done`);
  const ledger = count(store, 'SELECT count(*) FROM asks');
  if (ledger !== plan.asks) problems.push(`${ledger} asks in the ledger for ${plan.asks} made`);
  const health = integrity(store);
  if (health !== 'ok') problems.push(`integrity_check: ${health}`);
  await store.close();

  const figures: KillFigures = {
    asks: made.length, kills: killedAt.length, answered, lost: lost.length, duplicated: twice.length, unfinished,
    adds: adds.size, records: rows.length, notes: notes.length, notesInStore: stored.length, recordsMoved: states.size, refused,
    keeperPeakRss: peak, answeredBy, ms: Date.now() - started, integrity: health, killedAt, killedUntold, keeperSaid,
  };
  return { figures, problems };
}
