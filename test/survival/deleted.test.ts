/**
 * Deleted is deleted: once a person deletes a record (or a list) whose title, notes, fields and
 * attachments an agent wrote, read, searched and was answered about, and the answer window has
 * passed (the keeper's clock moved on, as tests may), no byte of those texts is left in any file:
 * binder.db, its -wal and -shm, nor the agent's folder (asks, answers, heartbeat, anything else).
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.js';
import { createKeeper } from '../../src/keeper/keeper.js';
import { ANSWERS_FILE, ASKS_FILE, TOO_LATE_MS } from '../../src/keeper/protocol.js';
import { tempDir } from '../helpers/temp.js';
import { ann, bot } from './fuzz-kit.js';

const START = Date.UTC(2026, 5, 1, 9, 0);

/** Every file under `root`, with its bytes. */
function files(root: string): { path: string; bytes: Buffer }[] {
  const out: { path: string; bytes: Buffer }[] = [];
  const walk = (at: string): void => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push({ path, bytes: readFileSync(path) });
    }
  };
  walk(root);
  return out;
}

/** Where each word is found, in any case, as UTF-8 or as JSON would escape it. */
function found(root: string, words: readonly string[]): string[] {
  const where: string[] = [];
  for (const { path, bytes } of files(root)) {
    for (const word of words) {
      for (const form of new Set([word, word.toLowerCase(), word.toUpperCase()])) {
        if (bytes.includes(Buffer.from(form, 'utf8'))) where.push(`${form} in ${path.slice(root.length + 1)}`);
      }
    }
  }
  return where;
}

function setup(t: TestContext) {
  const root = tempDir(t, 'binder-deleted-');
  const clock = { ms: START };
  const store = openStore(join(root, 'store'), { now: () => clock.ms });
  const dir = join(root, 'agent', '.binder');
  mkdirSync(dir, { recursive: true });
  const keeper = createKeeper({ store, sides: [{ dir, who: bot }], now: () => clock.ms, log: () => {} });
  t.after(async () => {
    await keeper.close();
    await store.close();
  });
  const answers = new Map<string, { ok: boolean; text: string; data?: unknown }>();
  /** One ask, as the agent's command writes it, pumped and answered at once. */
  const ask = async (op: string, args: Record<string, unknown>): Promise<{ ok: boolean; text: string; data?: unknown }> => {
    const id = randomUUID();
    appendFileSync(join(dir, ASKS_FILE), `${JSON.stringify({ id, at: new Date(clock.ms).toISOString(), op, args, want: 'json' })}\n`);
    await keeper.pump();
    const path = join(dir, ANSWERS_FILE);
    for (const line of existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : []) {
      const a = JSON.parse(line) as { ask: string; ok: boolean; text: string; data?: unknown };
      answers.set(a.ask, a);
    }
    const answer = answers.get(id);
    assert.ok(answer, `${op} was answered`);
    clock.ms += 1000;
    return answer;
  };
  /** Time passes, the agent asking now and then, the keeper pumping. */
  const pass = async (ms: number): Promise<void> => {
    for (const end = clock.ms + ms; clock.ms < end;) {
      clock.ms += 5000;
      if (clock.ms % 20_000 < 5000) await ask('lists', {});
      else await keeper.pump();
    }
  };
  return { root, clock, store, keeper, dir, ask, pass };
}

/** The agent writes, reads, searches: its words end up in the store, the index, the asks and the answers. */
async function agentWorks(s: Awaited<ReturnType<typeof setup>>, list: string, words: readonly [string, string, string, string]): Promise<number> {
  const [title, note, field, ref] = words;
  const added = await s.ask('add', { list, title: `Plan ${title} phase one`, note: `first ${note} detail`, fields: { branch: `feature/${field}` } });
  assert.equal(added.ok, true, added.text);
  const id = (added.data as { id: number }).id;
  for (const [op, args] of [
    ['note', { id, text: `again ${note} and ${title}` }],
    ['edit', { id, title: `Plan ${title} phase two` }],
    ['attach', { id, kind: 'link', ref: `https://example.com/${ref}`, title: `about ${title}` }],
    ['get', { id }], ['search', { text: title }], ['search', { text: note }], ['show', { list }], ['brief', {}],
  ] as const) assert.equal((await s.ask(op, args)).ok, true, op);
  // Neighbours before and after share its pages.
  for (let i = 0; i < 5; i++) await s.ask('add', { list, title: `neighbour ${i}`, note: `plain note ${i}` });
  return id;
}

test('a deleted record: past the answer window no byte of its title, notes, field or attachment is left in the store or the agent\'s folder', async (t) => {
  const s = setup(t);
  await s.keeper.act('create-list', { template: 'tasks', title: 'Work' }, ann);
  await s.keeper.act('grant', { list: 'work', agent: bot.id, access: 'write' }, ann);
  const WORDS = ['Zanquorith', 'Plevmoraxe', 'Quidbrentle', 'Yarwhistlen'] as const;
  const id = await agentWorks(s, 'work', WORDS);
  await s.store.checkpoint();
  const before = found(s.root, WORDS);
  for (const place of ['store/binder.db', `agent/.binder/${ASKS_FILE}`, `agent/.binder/${ANSWERS_FILE}`]) {
    assert.ok(before.some((w) => w.endsWith(place)), `the words are in ${place} before the delete (the check can fail)`);
  }

  const deleted = await s.keeper.act('delete', { id }, ann);
  assert.equal(deleted.ok, true, deleted.text);
  assert.deepEqual(found(join(s.root, 'store'), WORDS), [], 'the store keeps the words right after the delete');
  // Within the window the folder still holds the asks and answers of the last minute: that is the protocol.
  await s.pass(2 * TOO_LATE_MS + 10_000);
  assert.deepEqual(found(s.root, WORDS), [], 'words left past the answer window');
  // The agent's asks about it now are refused, and say nothing of it.
  const after = await s.ask('get', { id });
  assert.equal(after.ok, false);
  assert.equal(after.text, `There is no record #${id} you can see.`);
  assert.equal((await s.ask('search', { text: WORDS[0] })).text.startsWith('Nothing found'), true);
  const neighbours = await s.ask('search', { text: 'neighbour' });
  assert.match(neighbours.text, /neighbour 4/, 'the others are kept');
  t.diagnostic(`${WORDS.length} words in ${before.length} places before the delete; 0 bytes of them in ${files(s.root).length} files past the window`);
});

test('a deleted list: past the answer window no byte of its records is left anywhere', async (t) => {
  const s = setup(t);
  await s.keeper.act('create-list', { template: 'tasks', title: 'Orbwexel Projects' }, ann);
  await s.keeper.act('grant', { list: 'orbwexel-projects', agent: bot.id, access: 'write' }, ann);
  await s.keeper.act('create-list', { template: 'tasks', title: 'Kept' }, ann);
  await s.keeper.act('grant', { list: 'kept', agent: bot.id, access: 'write' }, ann);
  const WORDS = ['Trivexalum', 'Gronsquiddle', 'Mextropholy', 'Vunderkaswe'] as const;
  await agentWorks(s, 'orbwexel-projects', WORDS);
  await agentWorks(s, 'kept', ['Keptone', 'Kepttwo', 'Keptthree', 'Keptfour']);
  assert.ok(found(s.root, WORDS).length > 0);

  const deleted = await s.keeper.act('delete-list', { list: 'orbwexel-projects' }, ann);
  assert.equal(deleted.ok, true, deleted.text);
  await s.pass(2 * TOO_LATE_MS + 10_000);
  assert.deepEqual(found(s.root, [...WORDS, 'Orbwexel']), [], 'words of the deleted list left past the answer window');
  assert.ok(found(join(s.root, 'store'), ['Keptone']).length > 0, 'the other list is kept');
});
