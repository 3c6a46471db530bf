/** Asking and waiting: the answers file read from where it stood, through compaction and garbage. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, renameSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { askKeeper, waitFromEnv } from '../../src/agent/ask.js';
import { AnswersSince } from '../../src/agent/folder-files.js';
import { WAIT_MS } from '../../src/keeper/protocol.js';
import { tempDir } from '../helpers/temp.js';
import { miniKeeper } from './mini-keeper.js';

const answerLine = (ask: string, ok: boolean, text: string): string => `${JSON.stringify({ ask, at: new Date().toISOString(), ok, text })}\n`;

test('answers already there when the ask is made are not read, even one with the same id', async (t) => {
  const folder = tempDir(t);
  writeFileSync(join(folder, 'answers.jsonl'), answerLine('same-id', false, 'an old answer'));
  const keeper = miniKeeper(folder, () => ({ ok: true, text: 'the new answer' }));
  t.after(() => keeper.stop());
  const outcome = await askKeeper(folder, 'lists', {}, { newId: () => 'same-id', waitMs: 10_000 });
  assert.deepEqual(outcome, { outcome: 'answered', ok: true, text: 'the new answer' });
});

test('an answers file replaced by another (compaction by rename) is read from its start', async (t) => {
  const folder = tempDir(t);
  const answers = join(folder, 'answers.jsonl');
  writeFileSync(answers, answerLine('someone-else', true, 'x'.repeat(10_000)));
  const keeper = miniKeeper(folder, (ask) => {
    writeFileSync(`${answers}.new`, answerLine(ask.id, true, 'after compaction'));
    renameSync(`${answers}.new`, answers);
    return null;
  });
  t.after(() => keeper.stop());
  const outcome = await askKeeper(folder, 'lists', {}, { waitMs: 10_000 });
  assert.deepEqual(outcome, { outcome: 'answered', ok: true, text: 'after compaction' });
});

test('an answers file cut shorter in place is read from its start', async (t) => {
  const folder = tempDir(t);
  const answers = join(folder, 'answers.jsonl');
  writeFileSync(answers, answerLine('someone-else', true, 'x'.repeat(10_000)));
  const keeper = miniKeeper(folder, (ask) => {
    truncateSync(answers, 0);
    appendFileSync(answers, `not json\n[1,2]\n${answerLine('another', false, 'no')}${answerLine(ask.id, false, 'refused, after a cut')}`);
    return null;
  });
  t.after(() => keeper.stop());
  const outcome = await askKeeper(folder, 'move', { id: '12', state: 'Done' }, { waitMs: 10_000 });
  assert.deepEqual(outcome, { outcome: 'answered', ok: false, text: 'refused, after a cut' });
});

test('the ask line says id, at, op, args, want, and until when its asker waits', async (t) => {
  const folder = tempDir(t);
  const keeper = miniKeeper(folder, () => ({ ok: true, text: 'ok', data: { n: 1 } }));
  t.after(() => keeper.stop());
  const at = Date.parse('2026-11-04T09:00:00.000Z');
  const outcome = await askKeeper(folder, 'get', { id: '12' }, { want: 'json', now: () => at, newId: () => 'ask-1', waitMs: 10_000 });
  assert.deepEqual(outcome, { outcome: 'answered', ok: true, text: 'ok', data: { n: 1 } });
  assert.equal(readFileSync(join(folder, 'asks.jsonl'), 'utf8'),
    '{"id":"ask-1","at":"2026-11-04T09:00:00.000Z","op":"get","args":{"id":"12"},"want":"json","until":"2026-11-04T09:00:10.000Z"}\n');
});

test('a partial last line waits for its end; lines before the mark are never given', (t) => {
  const folder = tempDir(t);
  const answers = join(folder, 'answers.jsonl');
  writeFileSync(answers, 'before\n');
  const reader = new AnswersSince(answers);
  assert.deepEqual(reader.read(), []);
  appendFileSync(answers, 'one\ntw');
  assert.deepEqual(reader.read(), ['one']);
  assert.deepEqual(reader.read(), []);
  appendFileSync(answers, 'o\nthr');
  assert.deepEqual(reader.read(), ['two']);
  appendFileSync(answers, 'ee\n');
  assert.deepEqual(reader.read(), ['three']);
});

test('BINDER_WAIT_MS sets the wait when it is a positive whole number', () => {
  assert.equal(waitFromEnv({ BINDER_WAIT_MS: '250' }), 250);
  assert.equal(waitFromEnv({}), WAIT_MS);
  for (const wrong of ['0', '-5', 'soon', '1e3', '']) assert.equal(waitFromEnv({ BINDER_WAIT_MS: wrong }), WAIT_MS, wrong);
});
