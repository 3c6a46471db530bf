/**
 * Held waits are capped per agent as well as in all: one agent appending many raw waits to its
 * folder holds a few and is told it holds as many as it may; another agent's wait is still held.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { createKeeper, personWho } from '../../src/keeper/keeper.js';
import { WAITS_PER_AGENT } from '../../src/keeper/held-waits.js';
import { ASKS_FILE, ANSWERS_FILE } from '../../src/keeper/protocol.js';
import { openStore } from '../../src/store/index.js';
import { tempDir, until, inOrder } from '../helpers/temp.js';

const ann = personWho('Ann');

/** Appends `n` raw wait asks of ten minutes each; returns their ids. */
function rawWaits(dir: string, n: number): string[] {
  const ids: string[] = [];
  const at = Date.now();
  for (let i = 0; i < n; i++) {
    const id = randomUUID();
    ids.push(id);
    appendFileSync(join(dir, ASKS_FILE), `${JSON.stringify({
      id, at: new Date(at).toISOString(), op: 'wait', args: { timeout: '10m' }, wait: 600_000, until: new Date(at + 620_000).toISOString(),
    })}\n`);
  }
  return ids;
}

const answers = (dir: string): { ask: string; ok: boolean; text: string }[] => {
  try {
    return readFileSync(join(dir, ANSWERS_FILE), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { ask: string; ok: boolean; text: string });
  } catch {
    return [];
  }
};

test('one agent cannot take every held wait: past a few it is told so, and another agent\'s wait is still held', async (t) => {
  const root = tempDir(t, 'binder-wait-cap-');
  const store = openStore(join(root, 'store'));
  await store.createList({ template: 'batches' }, ann);
  const [greedy, other] = await inOrder(['Greedy', 'Other'], async (name) => {
    const dir = join(root, name.toLowerCase(), '.binder');
    mkdirSync(dir, { recursive: true });
    await store.addSide(dir, name, ann);
    await store.grant('batches', name, 'write', ann);
    return dir;
  }) as [string, string];
  const keeper = createKeeper({ store, log: () => {} });
  await keeper.start();
  t.after(async () => {
    await keeper.close();
    await store.close();
  });
  const held = (): number => store.db.prepare('SELECT count(*) FROM waits').pluck().get() as number;

  const ids = rawWaits(greedy, 12);
  await until(() => answers(greedy).length === 12 - WAITS_PER_AGENT && held() === WAITS_PER_AGENT, 10_000, 'the greedy agent\'s waits to be held or answered');
  const busy = answers(greedy);
  assert.ok(busy.every((a) => !a.ok && /^Busy: you hold \d+ waits already/.test(a.text)), busy[0]?.text);
  assert.ok(busy.every((a) => ids.includes(a.ask)));

  rawWaits(other, 1);
  await until(() => held() === WAITS_PER_AGENT + 1, 10_000, 'the other agent\'s wait to be held');
  assert.equal(answers(other).length, 0, 'held, not answered busy');

  // A change is told once to each agent: one of the greedy agent's waits, and the other's.
  await keeper.act('add', { list: 'batches', title: 'News' }, ann);
  await until(() => answers(other).length === 1 && answers(greedy).length === 12 - WAITS_PER_AGENT + 1, 10_000, 'the news told');
  assert.match(answers(other)[0]!.text, /News: added by Ann/);
  assert.equal(answers(greedy).filter((a) => /News: added by Ann/.test(a.text)).length, 1);
  assert.equal(held(), WAITS_PER_AGENT - 1);
});
