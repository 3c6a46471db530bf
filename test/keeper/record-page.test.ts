/**
 * `get` of a record with thousands of notes: it shows the latest notes and history rows, says how
 * many there are and how to page back (`--notes`, `--history`, `--offset`), in text, in JSON and
 * through MCP; the screen, which reads the store itself, still has every note.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { openStore, type RecordView } from '../../src/store/index.js';
import { createPerform } from '../../src/keeper/perform.js';
import { agentWho, personWho } from '../../src/keeper/keeper.js';
import { createMcpServer } from '../../src/mcp/mcp-server.js';
import { readRecord } from '../../src/person/reading.js';
import { tempDir } from '../helpers/temp.js';

const ann = personWho('ann');
const bot = agentWho('Bot');
const NOTES = 5000;

async function setup(t: import('node:test').TestContext) {
  const store = openStore(tempDir(t));
  t.after(() => store.close());
  const perform = createPerform({ store, log: () => {} });
  await store.createList({ template: 'batches' }, ann);
  await store.grant('batches', bot.id, 'write', ann);
  const id = (await store.add('batches', { title: 'A busy record' }, bot)).id;
  // Written as the store writes a note (its row and its history row), thousands at once.
  const by = JSON.stringify(bot);
  const note = store.db.prepare('INSERT INTO notes (record, at, by, text) VALUES (?, ?, ?, ?)');
  const log = store.db.prepare('INSERT INTO log (at, by, op, list, record, change) VALUES (?, ?, \'note\', \'batches\', ?, ?)');
  await store.transaction(async (tx) => {
    for (let i = 1; i <= NOTES; i++) {
      const at = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
      const n = Number(note.run(id, at, by, `note number ${i}: tests pass on the branch`).lastInsertRowid);
      log.run(at, by, id, JSON.stringify({ note: n }));
    }
  });
  return { store, perform, id };
}

test('get shows the latest notes and history rows, says how many and how to page back', async (t) => {
  const { perform, id } = await setup(t);
  const got = await perform('get', { id }, bot);
  assert.equal(got.ok, true, got.text);
  const lines = got.text.split('\n');
  assert.equal(lines.filter((l) => /^ {2}n\d+ /.test(l)).length, 10, 'ten notes');
  assert.ok(got.text.includes(`note number ${NOTES}:`) && !got.text.includes(`note number ${NOTES - 10}:`), 'the latest ones');
  assert.ok(lines.includes(`Notes (${NOTES}; the last 10):`), got.text);
  assert.ok(lines.includes(`  … ${NOTES - 10} earlier: binder get ${id} --notes 10 --offset 10 --history 0`), got.text);
  assert.ok(lines.includes(`History (${NOTES + 1}; the last 10):`), got.text);
  assert.ok(lines.includes(`  … ${NOTES + 1 - 10} earlier: binder get ${id} --history 10 --offset 10 --notes 0`), got.text);
  assert.ok(got.text.length < 4_000, `${got.text.length} characters`);

  // Paging back: the ten before the latest ten, and no history.
  const back = await perform('get', { id, notes: 10, offset: 10, history: 0 }, bot);
  assert.ok(back.text.includes(`note number ${NOTES - 10}:`) && back.text.includes(`note number ${NOTES - 19}:`) && !back.text.includes(`note number ${NOTES}:`));
  assert.ok(back.text.includes(`History (${NOTES + 1}; none shown):`), back.text);
  assert.equal(back.text.split('\n').filter((l) => /^ {2}\d{4}-/.test(l)).length, 0);
});

test('get --json says how many notes and history rows there are, and holds the page asked for', async (t) => {
  const { perform, id } = await setup(t);
  const answer = await perform('get', { id }, bot, 'json');
  const data = answer.data as RecordView;
  assert.ok(JSON.stringify(data).length < 8_000, `${JSON.stringify(data).length} bytes of JSON`);
  assert.deepEqual(data.counts, { notes: NOTES, history: NOTES + 1 });
  assert.equal(data.record.notes.length, 10);
  assert.equal(data.history.length, 10);
  assert.match(data.record.notes.at(-1)!.text, new RegExp(`^note number ${NOTES}:`), 'the latest last');
  const all = (await perform('get', { id, notes: 200, history: 200 }, bot, 'json')).data as RecordView;
  assert.equal(all.record.notes.length, 200);
  assert.equal(all.history.length, 200);
});

test('get refuses a page past its bounds, or a negative offset, with a sentence', async (t) => {
  const { perform, id } = await setup(t);
  assert.deepEqual(await perform('get', { id, notes: 201 }, bot), { ok: false, text: 'The notes must be a whole number from 0 to 200.', refusal: 'not-understood' });
  assert.deepEqual(await perform('get', { id, offset: -1 }, bot), { ok: false, text: 'The offset must be a whole number from 0.', refusal: 'not-understood' });
  assert.deepEqual(await perform('get', { id, history: '-5' }, bot), { ok: false, text: 'The history must be a whole number from 0 to 200.', refusal: 'not-understood' });
  assert.deepEqual(await perform('show', { list: 'batches', offset: -1 }, bot), { ok: false, text: 'The offset must be a whole number from 0.', refusal: 'not-understood' });
});

test('through MCP, get is bounded too', async (t) => {
  const { perform, id } = await setup(t);
  const server = createMcpServer({ ask: async (op, args) => ({ outcome: 'answered', ...await perform(op, args, bot) }) });
  const client = new Client({ name: 'test', version: '1' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  t.after(() => client.close());
  const result = (await client.callTool({ name: 'get', arguments: { id } })) as CallToolResult;
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  assert.ok(text.length < 4_000, `${text.length} characters`);
  assert.ok(text.includes(`\`get {"id": ${id}, "notes": 10, "offset": 10, "history": 0}\``), text);
});

test('the screen, reading the store itself, still has every note and the whole history of the record', async (t) => {
  const { store, id } = await setup(t);
  const read = await readRecord(store, ann, id);
  assert.ok(read.ok);
  assert.equal(read.value.record.notes.length, NOTES);
  assert.equal(read.value.history.length, NOTES + 1, 'every history row: the record view shows it whole');
  assert.deepEqual(read.value.counts, { notes: NOTES, history: NOTES + 1 });
});
