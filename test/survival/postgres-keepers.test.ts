/**
 * Survival on PostgreSQL: two `binder serve --no-tui --http` processes on one database, 8 agents
 * asking through their folders and 8 over HTTP (each change with an Idempotency-Key, sent to
 * either keeper and again to the other when one does not answer), 5,000 changes in all. Each
 * keeper is killed with SIGKILL in turn and started again, and the database is restarted once.
 * Then: every ask answered, every change done once, and the binder as a model of the answers
 * says — its records, their states, their notes, and the counts the binder keeps.
 * Skipped, saying why, where PostgreSQL is not installed.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { BINDER } from '../helpers/processes.js';
import { until } from '../helpers/temp.js';
import { postgresMissing, startCluster } from '../helpers/postgres.js';
import { openPostgresStore } from '../../src/store/postgres-store.js';
import { AGENT_ENV, AGENT_SCRIPT, random, type AgentPlan, type AgentReport } from './agent-process.js';
import { ann, startKeeper, survivalDir, track, type Keeping } from './harness.js';

const FOLDER_AGENTS = 8;
const FOLDER_ASKS = 400;
const HTTP_AGENTS = 8;
const HTTP_ASKS = 225;
const TOTAL = FOLDER_AGENTS * FOLDER_ASKS + HTTP_AGENTS * HTTP_ASKS;

const freePort = (): Promise<number> => new Promise((resolve, reject) => {
  const server = createServer();
  server.once('error', reject);
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    server.close(() => resolve(port));
  });
});

function runAgent(plan: AgentPlan): Promise<AgentReport> {
  return new Promise((done, fail) => {
    const child = track(spawn(process.execPath, [AGENT_SCRIPT], { env: { ...process.env, [AGENT_ENV]: JSON.stringify(plan) }, stdio: ['ignore', 'pipe', 'pipe'] }));
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => { out += c; });
    child.stderr.on('data', (c) => { err += c; });
    child.on('close', (code) => (code !== 0 ? fail(new Error(`agent ${plan.name} exited ${code}: ${err}`)) : done(JSON.parse(out) as AgentReport)));
  });
}

interface HttpReport { added: Map<number, string>; notes: string[]; tries: number; failed: string[]; unreachable: number; unavailable: number }

/** An agent over HTTP: adds and notes, each with its key, to one keeper or the other until one answers. */
async function httpAgent(name: string, token: string, ports: () => number[], asks: number, seed: number): Promise<HttpReport> {
  const rand = random(seed);
  const report: HttpReport = { added: new Map(), notes: [], tries: 0, failed: [], unreachable: 0, unavailable: 0 };
  const mine: number[] = [];
  for (let n = 0; n < asks; n++) {
    // Paced to last as long as the folders' asks: the kills and the restart meet them too.
    await new Promise((r) => setTimeout(r, 150 + rand() * 200));
    const key = `${name}-${n}`;
    const add = mine.length === 0 || rand() < 0.5;
    const body = add ? { list: 'tasks', title: key } : { id: mine[Math.floor(rand() * mine.length)], text: `note ${key}` };
    const path = add ? '/api/add' : '/api/note';
    const end = Date.now() + 90_000;
    for (let attempt = 0; ; attempt++) {
      if (Date.now() > end) {
        report.failed.push(`${key}: no keeper answered in 90 s`);
        break;
      }
      const list = ports();
      const port = list[(n + attempt) % list.length]!;
      report.tries++;
      let res: Response;
      try {
        res = await fetch(`http://127.0.0.1:${port}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(20_000),
        });
      } catch {
        report.unreachable++;
        await new Promise((r) => setTimeout(r, 50));
        continue; // that keeper is down: the other one
      }
      const answer = (await res.json()) as { ok: boolean; text: string; data: { id?: number; note?: { id: number } } };
      if (res.status === 503 || res.status === 429 || res.status === 500) {
        report.unavailable++;
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      if (res.status !== 200) {
        report.failed.push(`${key}: ${res.status} ${answer.text}`);
        break;
      }
      if (add) {
        report.added.set(answer.data.id!, key);
        mine.push(answer.data.id!);
      } else report.notes.push(`note ${key}`);
      break;
    }
  }
  return report;
}

test('two keepers on one PostgreSQL database, 8 folder and 8 HTTP agents, 5,000 changes, each keeper killed in turn and the database restarted: each change done once, every ask answered', { skip: postgresMissing() ?? false, timeout: 600_000 }, async (t) => {
  const seed = Number(process.env.BINDER_SURVIVAL_SEED) || Date.now() % 1_000_000;
  const root = survivalDir(t, 'binder-survival-pg-');
  const c = await startCluster();
  const url = c.database();
  const db = new URL(url).pathname.slice(1);
  t.after(() => c.stop());

  // The binder, as a person makes it: Tasks, 8 folders, 8 tokens, all granted.
  const setup = await openPostgresStore(url);
  await setup.createList({ template: 'tasks' }, ann);
  const dirs: string[] = [];
  for (let i = 0; i < FOLDER_AGENTS; i++) {
    const dir = join(root, `agent${i}`, '.binder');
    mkdirSync(dir, { recursive: true });
    await setup.addSide(dir, `Agent ${i}`, ann);
    await setup.grant('tasks', `Agent ${i}`, 'write', ann);
    dirs.push(dir);
  }
  const tokens: string[] = [];
  for (let i = 0; i < HTTP_AGENTS; i++) {
    tokens.push((await setup.addToken(`Web ${i}`, {}, ann)).token);
    await setup.grant('tasks', `Web ${i}`, 'write', ann);
  }
  await setup.close();

  // Two keepers, each on a port of its own; a killed one is started again on the same port.
  const ports = [await freePort(), await freePort()];
  const start = (k: number): Promise<Keeping> => startKeeper(url, ['--quiet', '--http', `127.0.0.1:${ports[k]}`]);
  const slots: (Keeping | null)[] = [await start(0), await start(1)];
  t.after(async () => { for (const k of slots) await k?.kill(); });
  const up = (): number[] => ports.filter((_, k) => slots[k] !== null);

  const taken = (): number => {
    try {
      return Number(c.psql(db, 'SELECT count(*) FROM asks').trim());
    } catch {
      return -1; // the database is restarting
    }
  };

  let finished = false;
  const folders = Promise.all(dirs.map((dir, i) => runAgent({
    dir, name: `f${i}`, asks: FOLDER_ASKS, mode: 'raw', window: 4, seed: seed + i, binder: BINDER, patience: 120_000,
  })));
  const webs = Promise.all(tokens.map((token, i) => httpAgent(`w${i}`, token, up, HTTP_ASKS, seed * 31 + i)));
  const all = Promise.all([folders, webs]).finally(() => { finished = true; });

  // Keeper 0 killed at a quarter, the database restarted at half, keeper 1 killed at three quarters.
  const events: string[] = [];
  const kill = async (k: number): Promise<void> => {
    const keeper = slots[k]!;
    slots[k] = null;
    await keeper.kill();
    events.push(`keeper ${k} killed at ${taken()} asks taken`);
    slots[k] = await start(k);
  };
  for (const [mark, act] of [
    [0.25, () => kill(0)],
    [0.5, async () => { events.push(`database restarted at ${taken()} asks taken`); await c.restart(); }],
    [0.75, () => kill(1)],
  ] as const) {
    await until(() => finished || taken() >= TOTAL * mark, 300_000, `${mark * 100}% of the asks`);
    if (finished) break;
    await act();
  }
  const [folderReports, webReports] = await all;
  t.diagnostic(`seed ${seed}: ${events.join('; ')}`);
  assert.equal(events.length, 3, `the agents finished before every kill: ${events.join('; ')}`);

  // What the agents were told.
  const problems: string[] = [];
  const adds = new Map<number, string>();
  const notes: string[] = [];
  const states = new Map<number, string>();
  for (const r of folderReports) {
    if (r.lost.length) problems.push(`${r.name}: ${r.lost.length} asks never answered`);
    if (r.twice.length) problems.push(`${r.name}: ${r.twice.length} answered twice`);
    if (r.strangers) problems.push(`${r.name}: ${r.strangers} answers to asks nobody made`);
    for (const ask of r.made) {
      const answer = r.answered[ask.id];
      if (!answer) continue;
      if (!answer.ok) { problems.push(`${ask.id} refused: ${answer.text}`); continue; }
      if (ask.op === 'add') adds.set(ask.record!, ask.id);
      else if (ask.op === 'note') notes.push(ask.text!);
      else states.set(ask.record!, ask.state!);
    }
  }
  let tries = 0;
  let unreachable = 0;
  let unavailable = 0;
  for (const r of webReports) {
    unreachable += r.unreachable;
    unavailable += r.unavailable;
    problems.push(...r.failed);
    for (const [id, title] of r.added) adds.set(id, title);
    notes.push(...r.notes);
    tries += r.tries;
  }
  assert.deepEqual(problems.slice(0, 10), []);

  // The binder, against that model.
  const store = await openPostgresStore(url);
  t.after(() => store.close());
  const list = await store.list('tasks', ann);
  const stateOf = new Map(list.states.map((s) => [s.name, s.id]));
  const records = JSON.parse(c.psql(db, "SELECT coalesce(json_agg(json_build_object('id', id, 'title', title, 'state', state)), '[]') FROM records")) as { id: number; title: string; state: string }[];
  assert.equal(records.length, adds.size, 'one record per add answered done');
  for (const r of records) {
    assert.equal(adds.get(r.id), r.title, `record #${r.id} is the one its add was told of`);
    assert.equal(r.state, stateOf.get(states.get(r.id) ?? 'To do'), `record #${r.id} is where its last move said`);
  }
  const stored = (JSON.parse(c.psql(db, "SELECT coalesce(json_agg(text), '[]') FROM notes")) as string[]).sort();
  assert.equal(new Set(stored).size, stored.length, 'no note written twice');
  assert.deepEqual(stored, [...notes].sort(), 'every note answered done, and no other');
  const ledger = Number(c.psql(db, 'SELECT count(*) FROM asks').trim());
  assert.equal(ledger, TOTAL, 'every ask (and every key) in the ledger once');
  // The counts the binder keeps (summed changes) agree with the records.
  const shown = (await store.lists(ann)).find((l) => l.id === 'tasks')!;
  assert.equal(shown.count, records.length);
  const page = await store.show('tasks', ann, { limit: 0 });
  for (const [name, id] of stateOf) {
    assert.equal(page.counts[id] ?? 0, records.filter((r) => r.state === id).length, `the count of ${name}`);
  }
  t.diagnostic(`${TOTAL} changes: ${adds.size} records, ${notes.length} notes, ${states.size} records moved; ${tries} HTTP requests for ${HTTP_AGENTS * HTTP_ASKS} changes (${unreachable} to a keeper gone, ${unavailable} answered 503 or busy, each sent again)`);
});
