/**
 * 1,000 requests at once from 50 agents' tokens on a real socket: every one answered, every change
 * done once — retries with the same Idempotency-Key among them — and each agent's changes its own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startHttp } from '../../src/http/listen.js';
import { ann, served } from './kit.js';

test('1,000 concurrent requests from 50 tokens: all answered, each change done once', { timeout: 120_000 }, async (t) => {
  const agents = Array.from({ length: 50 }, (_, i) => `Agent ${i + 1}`);
  const s = await served(t, { agents });
  // Durability is the crash tests' concern: here a sync per commit would only slow the machine down.
  s.store.db.pragma('synchronous = OFF');
  const serving = await startHttp(s.keeper, { host: '127.0.0.1', port: 0, behindProxy: false, allowHosts: [] }, { log: () => {} });
  t.after(() => serving.close());

  interface Sent { agent: string; op: string; key?: string; title?: string }
  const plan: Sent[] = [];
  for (const agent of agents) {
    for (let i = 0; i < 20; i++) {
      if (i % 4 === 3) plan.push({ agent, op: 'lists' });
      else if (i % 4 === 2) plan.push({ ...plan[plan.length - 1]! }); // the change before, sent again with its key
      else plan.push({ agent, op: 'add', key: randomUUID(), title: `${agent} #${i}` });
    }
  }
  assert.equal(plan.length, 1000);
  const answers = await Promise.all(plan.map(async (p) => {
    const res = await fetch(`${serving.url}/api/${p.op}`, {
      method: p.op === 'add' ? 'POST' : 'GET',
      headers: { authorization: `Bearer ${s.tokens[p.agent]}`, ...(p.key ? { 'idempotency-key': p.key } : {}) },
      ...(p.op === 'add' ? { body: JSON.stringify({ list: 'Batches', title: p.title }) } : {}),
    });
    return { status: res.status, replayed: res.headers.get('idempotent-replayed') === 'true', json: (await res.json()) as { ok: boolean; data: { id?: number } } };
  }));
  assert.deepEqual(answers.filter((a) => a.status !== 200).map((a) => a.status), [], 'every request answered 200');
  const titles = new Map<string, number>();
  for (const p of plan) if (p.title) titles.set(p.title, (titles.get(p.title) ?? 0) + 1);
  const rows = s.store.db.prepare("SELECT title, json_extract(l.by, '$.id') AS by FROM records r JOIN log l ON l.record = r.id AND l.op = 'add'").all() as { title: string; by: string }[];
  assert.equal(rows.length, titles.size, 'each change done once');
  for (const row of rows) assert.equal(row.by, `agent:${row.title.replace(/ #\d+$/, '').toLowerCase().replace(' ', '-')}`, row.title);
  // Each retried add answered with the first one's record.
  for (let i = 0; i < plan.length; i++) {
    if (plan[i]!.op === 'add' && plan[i - 1]?.key === plan[i]!.key) assert.equal(answers[i]!.json.data.id, answers[i - 1]!.json.data.id);
  }
  assert.ok(answers.some((a) => a.replayed));
  assert.equal((await s.store.lists(ann)).find((l) => l.id === 'batches')!.count, titles.size);
});
