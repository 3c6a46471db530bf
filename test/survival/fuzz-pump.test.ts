/**
 * Random ask lines into an agent's folder, pumped by the keeper in-process on one store: asks
 * well and badly formed, replayed ids, forged identities, stale and future times, bytes that
 * are not text. The pump never throws nor logs a failure, answers each usable id exactly once
 * and nothing else, changes nothing when all it answers is refusals, and every refusal is a
 * sentence that names nothing of the hidden list.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { openStore } from '../../src/store/index.js';
import { createKeeper } from '../../src/keeper/keeper.js';
import { OPERATIONS } from '../../src/keeper/operations.js';
import { ANSWERS_FILE, ASKS_FILE, LINE_MAX } from '../../src/keeper/protocol.js';
import { ASKED_BEFORE_TEXT, FAILED_TEXT, NO_OP_TEXT, NO_TIME_TEXT, TOO_LATE_TEXT, aheadText } from '../../src/keeper/folder-pump.js';
import { BUSY_TEXT, LATE_TEXT } from '../../src/keeper/held-waits.js';
import { tempDir } from '../helpers/temp.js';
import { FORGED, LEDGER, argsFor, bot, dumpStore, fuzzSeed, layBinder, leaksHidden, notASentence, words } from './fuzz-kit.js';

const RUNS = 500;
const START = Date.UTC(2026, 5, 1, 9, 0);

/** The ids of the complete, usable ask lines in `bytes`, read as the keeper reads them. */
function usableIds(bytes: Buffer): string[] {
  const ids: string[] = [];
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  let at = 0;
  for (let end = bytes.indexOf(10); end !== -1; end = bytes.indexOf(10, at)) {
    const line = bytes.subarray(at, end);
    at = end + 1;
    // An over-long line is answered by the id at its start, where binder writes it.
    if (line.length > LINE_MAX) {
      const head = /^\{"id":("(?:[^"\\]|\\.){1,128}")/.exec(line.subarray(0, 512).toString('utf8'));
      if (head) ids.push(JSON.parse(head[1]!) as string);
      continue;
    }
    try {
      const value: unknown = JSON.parse(utf8.decode(line));
      if (!value || typeof value !== 'object' || Array.isArray(value)) continue;
      const id = Object.hasOwn(value, 'id') ? (value as { id: unknown }).id : undefined;
      if (typeof id === 'string' && id.length >= 1 && id.length <= 128) ids.push(id);
    } catch { /* not an ask: skipped by the keeper too */ }
  }
  return ids;
}

test('fuzz: random ask lines into the pump — each usable id answered once, nothing else; refusals are sentences and change nothing', async (t) => {
  const root = tempDir(t, 'binder-fuzz-pump-');
  const clock = { ms: START };
  const store = openStore(join(root, 'store'), { now: () => clock.ms });
  const dir = join(root, 'agent', '.binder');
  mkdirSync(dir, { recursive: true });
  const logs: string[] = [];
  const keeper = createKeeper({ store, sides: [{ dir, who: bot }], now: () => clock.ms, log: (line) => logs.push(line) });
  t.after(async () => {
    await keeper.close();
    await store.close();
  });
  // Durability is the crash tests' concern; here, a sync per commit would only slow the fuzz down.
  store.db.pragma('synchronous = OFF');
  await layBinder(store);
  await keeper.pump();

  const opNames = OPERATIONS.map((o) => o.name);
  const when = fc.constantFrom('now', 'now', 'now', 'stale', 'future', 'garbage', 'absent');
  const ask = fc.record({
    id: fc.oneof({ weight: 5, arbitrary: fc.uuid() }, { weight: 1, arbitrary: fc.constantFrom('dup-1', 'dup-2', '__proto__', 'x'.repeat(128), 'y'.repeat(129), '') }, { weight: 1, arbitrary: fc.integer() }),
    at: when,
    op: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...opNames) }, { weight: 1, arbitrary: fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('', '__proto__', 'toString', 'constructor', 'hasOwnProperty')) }),
    want: fc.constantFrom(undefined, 'json', 'JSON', 'text'),
    wait: fc.constantFrom(undefined, 0, 5000, -1, 'x', 1e12),
    forge: fc.boolean(),
  }).chain((a) => {
    const spec = OPERATIONS.find((o) => o.name === a.op);
    const args: fc.Arbitrary<unknown> = spec ? argsFor(spec) : fc.oneof(fc.dictionary(fc.string({ maxLength: 5 }), words, { maxKeys: 3 }), words);
    return args.map((given) => {
      const at = a.at === 'now' ? new Date(clock.ms).toISOString()
        : a.at === 'stale' ? new Date(clock.ms - 61_000).toISOString()
          : a.at === 'future' ? new Date(clock.ms + 3_600_000).toISOString()
            : a.at === 'garbage' ? 'yesterday' : undefined;
      const line: Record<string, unknown> = { id: a.id, ...(at ? { at } : {}), op: a.op, args: given };
      if (a.want !== undefined) line.want = a.want;
      if (a.wait !== undefined) line.wait = a.wait;
      // Identity forged on the line itself, beside the args.
      if (a.forge) Object.assign(line, FORGED, { side: 'Ann', folder: '/elsewhere' });
      return Buffer.from(`${JSON.stringify(line)}\n`, 'utf8');
    });
  });
  const line = fc.oneof(
    { weight: 8, arbitrary: ask },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }).map((s) => Buffer.from(`${s.replace(/\n/g, ' ')}\n`, 'utf8')) },
    // Bytes that are not UTF-8 text.
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 40 }).map((b) => Buffer.from([...b.map((x) => (x === 10 ? 32 : x)), 10])) },
    { weight: 1, arbitrary: fc.constantFrom('\n', '[]\n', 'null\n', '"text"\n', '{}\n', '{"id":"__proto__"}\n', '{"__proto__":{"id":"p","op":"delete"}}\n', `{"id":"long","pad":"${'z'.repeat(LINE_MAX)}"}\n`).map((s) => Buffer.from(s, 'utf8')) },
  );

  const asksPath = join(dir, ASKS_FILE);
  const answersPath = join(dir, ANSWERS_FILE);
  const answered = new Map<string, number>();
  const firstText = new Map<string, string>();
  /** Every usable id appended so far. */
  const asked = new Set<string>();
  let answersSeen = 0;
  let said = '';
  const figures = { runs: 0, lines: 0, answers: 0, refused: 0, replays: 0, again: 0 };
  const seed = fuzzSeed();

  await fc.assert(fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 4 }), async (lines) => {
    figures.runs++;
    clock.ms += 50;
    const before = dumpStore(store.db, LEDGER);
    for (const bytes of lines) appendFileSync(asksPath, bytes);
    figures.lines += lines.length;
    await keeper.pump();
    assert.deepEqual(logs.filter((l) => /fail/i.test(l)), [], 'the keeper logged a failure');

    // The answers file only grows here: within the window nothing is compacted.
    const bytes = existsSync(answersPath) ? readFileSync(answersPath) : Buffer.alloc(0);
    const fresh = bytes.subarray(answersSeen).toString('utf8').split('\n').filter(Boolean)
      .map((l) => JSON.parse(l) as { ask: string; ok: boolean; text: string; data?: unknown });
    answersSeen = bytes.length;
    // Everything the agent ever wrote: an id asked again is given its first answer again, which
    // may quote what was said with it then.
    said += Buffer.concat(lines).toString('utf8').toLowerCase();
    const newIds = usableIds(Buffer.concat(lines));
    const firstTime = newIds.filter((id, i) => !asked.has(id) && newIds.indexOf(id) === i);
    figures.replays += newIds.length - firstTime.length;
    for (const id of newIds) asked.add(id);
    let onlyRefusals = true;
    for (const a of fresh) {
      figures.answers++;
      answered.set(a.ask, (answered.get(a.ask) ?? 0) + 1);
      if (answered.get(a.ask)! > 1) {
        // Answered again only when asked again, and with the answer it was given, never a new one.
        figures.again++;
        assert.ok(newIds.includes(a.ask), `ask ${a.ask} answered twice`);
        assert.ok(a.text === firstText.get(a.ask) || a.text === ASKED_BEFORE_TEXT, `ask ${a.ask} answered again with another answer: ${a.text}`);
      } else firstText.set(a.ask, a.text);
      assert.ok(asked.has(a.ask), `an answer to ${a.ask}, which nobody asked`);
      assert.deepEqual(leaksHidden(`${a.text}${JSON.stringify(a.data ?? null)}`).filter((w) => !said.includes(w)), [], `the hidden list in: ${a.text}`);
      if (a.ok) onlyRefusals = false;
      else {
        figures.refused++;
        assert.deepEqual(notASentence(a.text, said), [], `refused with: ${a.text}`);
      }
    }
    // A wait with nothing to say yet is held: answered later, once something changes.
    const waits = lines.filter((l) => l.includes('"op":"wait"')).length;
    const unanswered = firstTime.filter((id) => !answered.has(id));
    assert.ok(unanswered.length <= waits, `asks left unanswered: ${unanswered.join(', ')}`);
    if (onlyRefusals) assert.equal(dumpStore(store.db, LEDGER), before, 'refusals changed the binder');
  }), { numRuns: RUNS, seed, endOnFailure: true, includeErrorInReport: true });
  t.diagnostic(`seed ${seed}: ${figures.runs} passes, ${figures.lines} lines, ${figures.answers} answers (${figures.refused} refusals), ${figures.replays} replayed ids, ${figures.again} answered again with their first answer, 0 done twice`);
});

test('the keeper\'s own refusals are sentences', () => {
  for (const text of [TOO_LATE_TEXT, NO_TIME_TEXT, NO_OP_TEXT, FAILED_TEXT, BUSY_TEXT, LATE_TEXT, ASKED_BEFORE_TEXT, aheadText(3_600_000)]) {
    assert.deepEqual(notASentence(text), [], text);
  }
});
