/**
 * `binder admin export` as a person runs it: Binder's JSON (one list or record per line, all of
 * it), CSV (a row per record, formulas defused), Markdown (a file per list, agents' text kept
 * text), a file readable by its owner only or none at all, and no such verb for an agent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.js';
import { parseCsv } from '../../src/exchange/csv.js';
import { createPerform } from '../../src/keeper/perform.js';
import { binder } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp.js';

const ann = { id: 'person:ann', kind: 'person' as const, name: 'ann' };
const bot = { id: 'agent:bot', kind: 'agent' as const, name: 'Bot' };
const HOSTILE = '=HYPERLINK("http://evil.example") ![x](http://evil.example/p.png) <script>|x|';

async function laid(t: import('node:test').TestContext) {
  const root = tempDir(t);
  const dir = join(root, 'store');
  const store = openStore(dir);
  await store.createList({ template: 'tasks' }, ann);
  await store.createList({ template: 'batches' }, ann);
  await store.grant('tasks', 'agent:bot', 'write', ann);
  const a = (await store.add('tasks', { title: 'Build', fields: { Priority: 'High' }, note: 'first\nsecond line' }, bot)).id;
  const b = (await store.add('tasks', { title: HOSTILE, owners: ['me', 'person:ann'], due: '2026-12-24' }, bot)).id;
  await store.needs(b, [a], bot);
  await store.attach(b, { kind: 'link', ref: 'https://example.com', title: 'spec' }, bot);
  const c = (await store.add('batches', { title: 'Approved one' }, ann)).id;
  await store.approve(c, true, ann);
  await store.close();
  const admin = (...args: string[]) => binder(['admin', '--store', dir, '--as', 'ann', ...args]);
  return { root, dir, admin, ids: { a, b, c } };
}

test('export JSON: the whole binder, one list or record per line, lossless and parseable', async (t) => {
  const { admin, root, ids } = await laid(t);
  const out = join(root, 'binder.json');
  const done = admin('export', '--out', out);
  assert.equal(done.code, 0, done.err);
  assert.equal(done.out, `Exported 2 lists and 3 records to ${out} (json).\n`);
  assert.equal(statSync(out).mode & 0o777, 0o600, 'readable by its owner only');
  const text = readFileSync(out, 'utf8');
  const doc = JSON.parse(text);
  assert.equal(doc.format, 'binder');
  assert.equal(doc.version, 1);
  assert.deepEqual(doc.lists.map((l: { id: string }) => l.id), ['tasks', 'batches']);
  assert.deepEqual(doc.lists[0].access, { 'agent:bot': 'write' });
  assert.equal(text.split('\n').length, 1 + 2 + 1 + 3 + 1 + 1, 'a line each, the head and the ends');
  const b = doc.records.find((r: { id: number }) => r.id === ids.b);
  assert.equal(b.title, HOSTILE);
  assert.deepEqual(b.needs, [ids.a]);
  assert.deepEqual(b.owners, ['agent:bot', 'person:ann']);
  assert.equal(b.attachments[0].ref, 'https://example.com');
  assert.deepEqual(b.history.map((h: { op: string }) => h.op), ['add', 'needs', 'attach']);
  assert.equal(doc.records.find((r: { id: number }) => r.id === ids.a).notes[0].text, 'first\nsecond line');
  assert.equal(doc.records.find((r: { id: number }) => r.id === ids.c).approved.by.id, 'person:ann');

  // The lists named only; to stdout, nothing but the export.
  const one = admin('export', 'Batches');
  assert.equal(one.code, 0, one.err);
  assert.deepEqual(JSON.parse(one.out).records.map((r: { id: number }) => r.id), [ids.c]);
});

test('export CSV: a row per record with its list\'s fields; a formula is never a formula', async (t) => {
  const { admin, root, ids } = await laid(t);
  const out = join(root, 'tasks.csv');
  assert.equal(admin('export', 'tasks', '--out', out).code, 0);
  const rows = parseCsv(readFileSync(out, 'utf8'));
  assert.deepEqual(rows[0]!.cells, ['id', 'list', 'title', 'state', 'approved by', 'owners', 'due', 'archived', 'created', 'updated', 'needs', 'Priority', 'Branch']);
  assert.equal(rows.length, 3);
  assert.deepEqual(rows[1]!.cells.slice(0, 4), [String(ids.a), 'tasks', 'Build', 'To do']);
  assert.equal(rows[1]!.cells[11], 'High');
  assert.equal(rows[2]!.cells[2], HOSTILE, 'read back as written');
  assert.match(readFileSync(out, 'utf8'), /,"'=HYPERLINK\(""http/, 'but written after a quote');
  assert.equal(rows[2]!.cells[5], 'agent:bot; person:ann');
  assert.equal(rows[2]!.cells[10], String(ids.a));
});

test('export Markdown: a file per list in a folder; what agents wrote stays text', async (t) => {
  const { admin, root } = await laid(t);
  const out = join(root, 'md');
  assert.equal(admin('export', '--format', 'markdown', '--out', out).code, 0);
  assert.deepEqual(readdirSync(out).sort(), ['batches.md', 'tasks.md']);
  const tasks = readFileSync(join(out, 'tasks.md'), 'utf8');
  assert.match(tasks, /^# Tasks\n/);
  assert.match(tasks, /## To do \(2\)/);
  assert.ok(tasks.includes('=HYPERLINK("http://evil.example") !\\[x\\](http://evil.example/p.png) \\<script\\>\\|x\\|'), tasks);
  assert.ok(!/<script>/.test(tasks));
  assert.match(tasks, /- \*\*Bot\*\*, .* UTC: first<br>second line/);
  assert.match(readFileSync(join(out, 'batches.md'), 'utf8'), /\| Approved one ✓ \|/);
});

test('export refused: nothing written; and no agent can export', async (t) => {
  const { admin, root, dir } = await laid(t);
  const out = join(root, 'none.json');
  const refused = admin('export', 'Nowhere', '--out', out);
  assert.equal(refused.code, 1);
  assert.match(refused.err, /There is no list "Nowhere"/);
  assert.ok(!existsSync(out));
  assert.deepEqual(readdirSync(root).filter((n) => n.includes('part')), [], 'no part file left');

  const store = openStore(dir);
  t.after(() => store.close());
  const perform = createPerform({ store, log: () => {} });
  assert.match((await perform('export', {}, bot)).text, /There is no operation "export"/);
  assert.match((await perform('export', {}, ann)).text, /There is no operation "export"/, 'not in the catalog: no face but binder admin has it');
  assert.equal(binder(['export', '--dir', root]).code, 64);
});
