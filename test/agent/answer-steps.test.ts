/**
 * An answer's next steps in answers.jsonl as places in its text, not the sentence again: put back
 * together by the asking side exactly as written, hostile places read as plain text, and end to
 * end a page of `show` through binder-mcp and a real keeper whose line carries the text once and
 * whose tool result still names its steps as tool calls.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { sentenceIn, stepsIn } from '../../src/keeper/answer-steps.js';
import { commandStep } from '../../src/keeper/step-words.js';
import { placeholder, sentence, step, written, type Sentence } from '../../src/store/sentence.js';
import { BINDER_MCP, binder, serveKeeper } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp.js';

const SENTENCES: Sentence[] = [
  sentence`Next: ${step('take', { next: 'batches' })}`,
  sentence`When done: ${step('release', { id: 3 })}; to keep it longer: ${step('take', { id: 3 })}.`,
  sentence`${step('brief')}`,
  sentence`  … 3 more: ${step('show', { list: 'batches', state: 'In review', offset: 50 })}\nNext: ${step('get', { id: placeholder('ID') })}`,
  sentence`Empty. Add one: ${step('add', { list: 'batches', title: placeholder('TITLE') })} — or «${step('lists')}» ✓`,
];

test('steps as places in the text: the sentence put back exactly as the keeper had it', () => {
  for (const words of SENTENCES) {
    const text = written(words, commandStep);
    const places = stepsIn(text, words, commandStep);
    assert.ok(places, text);
    assert.deepEqual(sentenceIn(text, JSON.parse(JSON.stringify(places))), words.filter((part) => part !== ''), text);
  }
  // A text that is not the sentence written out gives no places: the line then carries the sentence.
  assert.equal(stepsIn('Next: binder take 3 (changed)', sentence`Next: ${step('take', { id: 3 })}`, commandStep), null);
  assert.equal(stepsIn('Next: binder take 3', sentence`Next: ${step('take', { id: 4 })}`, commandStep), null);
});

test('places that do not fit the text are not steps: the text is read as it is', () => {
  const text = 'Next: binder take 3';
  const good = { at: 6, to: 19, op: 'take', args: { id: 3 } };
  assert.ok(sentenceIn(text, [good]));
  for (const bad of [
    [{ ...good, to: 20 }], [{ ...good, at: -1 }], [{ ...good, at: 6.5 }], [{ ...good, to: 6 }], [{ ...good, at: '6' }],
    [good, good], [{ ...good, at: 10, to: 12 }, { ...good, at: 6, to: 8 }], [{ ...good, op: 7 }], [{ ...good, args: ['x'] }],
    [{ ...good, args: null }], [null], ['take'], [{ ...good, at: Number.MAX_SAFE_INTEGER + 2 }], {}, 'steps', [],
  ]) {
    assert.equal(sentenceIn(text, bad), undefined, JSON.stringify(bad));
  }
});

test('a page of show through binder-mcp: its line in answers.jsonl carries the text once, the tool result its steps as tool calls', { timeout: 120_000 }, async (t) => {
  const root = tempDir(t);
  const store = join(root, 'store');
  const folder = join(root, 'site', '.binder');
  mkdirSync(folder, { recursive: true });
  const admin = (...args: string[]) => binder(['admin', '--store', store, '--as', 'ann', ...args]);
  assert.equal(admin('create-list', 'Tasks', '--template', 'tasks').code, 0);
  assert.equal(admin('side', 'add', folder, 'Agent').code, 0);
  assert.equal(admin('grant', 'tasks', 'Agent', 'write').code, 0);
  await serveKeeper(t, ['--store', store]);
  const client = new Client({ name: 'steps', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BINDER_MCP, '--dir', folder], stderr: 'pipe' }));
  t.after(() => client.close());
  for (let i = 1; i <= 60; i++) {
    const added = (await client.callTool({ name: 'add', arguments: { list: 'tasks', title: `Task number ${i} with a title of some length` } })) as CallToolResult;
    assert.equal(added.isError, undefined, JSON.stringify(added.content));
  }
  const shown = (await client.callTool({ name: 'show', arguments: { list: 'tasks' } })) as CallToolResult;
  const said = (shown.content[0] as { text: string }).text;
  assert.match(said, /more: `show \{"list": "tasks", "state": "To do", "offset": 50\}`/);
  assert.match(said, /Next: `get \{"id": ID\}`/);
  assert.doesNotMatch(said, /binder (show|get) /);

  const lines = readFileSync(join(folder, 'answers.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  const last = lines.at(-1)!;
  assert.equal(last.sentence, undefined, 'the sentence is not written a second time');
  assert.ok(Array.isArray(last.steps) && last.steps.length === 2, JSON.stringify(last.steps));
  const text = String(last.text);
  assert.match(text, /more: binder show tasks --state "To do" --offset 50/, 'the command line\'s own steps in the text, for any other reader');
  const line = JSON.stringify(last).length;
  assert.ok(line < JSON.stringify(text).length + 400, `the line (${line} bytes) is its text (${text.length}) and little more`);
});
