/**
 * The kill tests' agents read answers as `binder` does: a line a keeper killed mid-write left
 * unfinished (its write cut short at a page; the next keeper ends it before its own lines) is no
 * answer, and the answers after it are read. An agent that stopped there lost every later answer
 * (kill-keeper.test.ts failed once so: "Unterminated string in JSON").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AnswersReader } from './agent-process.js';
import { answersIn } from './harness.js';

test('an answer line left unfinished by a killed keeper is skipped, and the answers after it are read', () => {
  const dir = mkdtempSync(join(tmpdir(), 'binder-reader-'));
  const file = join(dir, 'answers.jsonl');
  writeFileSync(file, '{"ask":"a-1","ok":true,"text":"Added #1 to tasks in To do."}\n{"a');
  const seen: string[] = [];
  const reader = new AnswersReader(file, (id) => seen.push(id));
  reader.read();
  // The next keeper ends the unfinished line, then writes its own.
  appendFileSync(file, '\n{"ask":"a-2","ok":true,"text":"Noted on #1 (n1)."}\n');
  reader.read();
  assert.deepEqual(seen, ['a-1', 'a-2']);
  assert.equal(reader.unfinished, 1);
  assert.deepEqual(answersIn(dir).map((a) => a.ask), ['a-1', 'a-2']);
});
