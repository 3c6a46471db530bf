/**
 * Promise 6: hostile lines, against a real `binder serve`: a 100 MB line written at once, a line
 * with no newline that grows slowly, invalid UTF-8, deep nesting, `__proto__` and `constructor`
 * keys, wrong types for every argument of every operation, a thousand asks in one write, the file
 * truncated and rotated mid-run. The keeper's resident memory stays bounded, it never crashes nor
 * fails inside, nothing reaches a prototype, and each well-formed ask is answered once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, renameSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { until } from '../helpers/temp.js';
import { ASKS_FILE, LINE_MAX } from '../../src/keeper/protocol.js';
import { OPERATIONS, type ArgSpec } from '../../src/keeper/operations.js';
import { answeredTwice, answersIn, answerTo, askLine, count, integrity, makeBinder, residentBytes, startKeeper, survivalDir } from './harness.js';
import { dbOf } from '../helpers/sqlite-db.js';

const RSS_BOUND = 200 * 1024 * 1024;
const pace = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** A value of the right kind, so that one argument at a time can be made wrong. */
function fitting(name: string, spec: ArgSpec): string {
  const byName: Record<string, unknown> = { list: 'tasks', next: 'tasks', on: 'tasks', state: 'Doing', timeout: '1s', for: '30m', template: 'tasks' };
  if (Object.hasOwn(byName, name)) return JSON.stringify(byName[name]);
  switch (spec.kind) {
    case 'text': case 'words': return '"hello"';
    case 'record': case 'number': return '1';
    case 'due': return '"2030-01-01"';
    case 'owners': return '["me"]';
    case 'fields': return '{"Priority":"High"}';
    case 'texts': return '["x"]';
    case 'choice': return JSON.stringify(spec.choices?.[0] ?? 'x');
    case 'flag': return 'true';
    default: return '"x"';
  }
}

/** Wrong values, as JSON text (so that a `__proto__` key stays a key of the line). */
const WRONG = [
  '42', '-1', '1e308', '1.5', 'true', 'null', '[]', '{}', '[[[["deep"]]]]', '"NaN"', '""', JSON.stringify('x'.repeat(5000)),
  '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":2}}}', '"\\u0000\\u001b[31m\\u202e"',
];

test('hostile lines: bounded memory, no crash, no pollution, each well-formed ask answered once', { timeout: 120_000 }, async (t) => {
  const root = survivalDir(t, 'binder-hostile-lines-');
  const { storeDir, store, dirs } = await makeBinder(root, 5);
  t.after(() => store.close());
  const [big, slow, odd, burst, turn] = dirs as [string, string, string, string, string];
  const asks = (dir: string) => join(dir, ASKS_FILE);
  const keeper = await startKeeper(storeDir);
  t.after(() => keeper.kill());
  let peak = residentBytes(keeper.pid) ?? 0;
  const sampler = setInterval(() => { peak = Math.max(peak, residentBytes(keeper.pid) ?? 0); }, 20).unref();
  t.after(() => clearInterval(sampler));
  let sent = 0;

  // A 100 MB line, in one write, then a good ask after it.
  const head = Buffer.from(`{"id":"huge","at":"${new Date().toISOString()}","op":"add","args":{"list":"tasks","title":"`);
  writeFileSync(asks(big), Buffer.concat([head, Buffer.alloc(100 * 1024 * 1024, 0x61), Buffer.from('"}}\n'), Buffer.from(askLine('after-huge', 'add', { list: 'tasks', title: 'after huge' }))]));
  sent += 1;

  // A thousand asks in one write.
  writeFileSync(asks(burst), Array.from({ length: 1000 }, (_, i) => askLine(`burst-${i}`, 'add', { list: 'tasks', title: `burst ${i}` })).join(''));
  sent += 1000;

  // Odd lines: invalid UTF-8, deep nesting, prototype keys, odd operations, wrong types at the top.
  const at = new Date().toISOString();
  const oddLines: [string | Buffer, string | null][] = [
    [Buffer.concat([Buffer.from(`{"id":"utf8","at":"${at}","op":"add","args":{"title":"`), Buffer.from([0xc3, 0x28, 0xff, 0xfe]), Buffer.from('"}}\n')]), null],
    [`{"id":"deep-array","at":"${at}","op":"add","args":{"list":"tasks","title":"deep","fields":${'['.repeat(30_000)}${']'.repeat(30_000)}}}\n`, 'deep-array'],
    [`{"id":"deep-object","at":"${at}","op":"add","args":{"list":"tasks","title":"deep","x":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}}\n`, 'deep-object'],
    [`{"id":"proto-args","at":"${at}","op":"add","args":{"list":"tasks","title":"proto","__proto__":{"state":"Done","owners":["agent:x"],"ok":true}}}\n`, 'proto-args'],
    [`{"id":"ctor-args","at":"${at}","op":"add","args":{"list":"tasks","title":"ctor","constructor":{"prototype":{"state":"Done"}}}}\n`, 'ctor-args'],
    [`{"id":"proto-line","at":"${at}","op":"lists","args":{},"__proto__":{"want":"json","op":"delete"}}\n`, 'proto-line'],
    ...['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'].map((op): [string, string] => [askLine(`op-${op}`, op, {}), `op-${op}`]),
    [`{"id":"args-array","at":"${at}","op":"add","args":["tasks","x"]}\n`, 'args-array'],
    [`{"id":"args-string","at":"${at}","op":"add","args":"tasks x"}\n`, 'args-string'],
    [`{"id":"args-null","at":"${at}","op":"lists","args":null}\n`, 'args-null'],
    [`{"id":"op-number","at":"${at}","op":42,"args":{}}\n`, 'op-number'],
    [`{"id":"at-number","at":12345,"op":"lists","args":{}}\n`, 'at-number'],
    [`{"id":"want-object","at":"${at}","op":"lists","args":{},"want":{"json":true}}\n`, 'want-object'],
    [`{"id":{"a":1},"at":"${at}","op":"lists","args":{}}\n`, null],
    [`[{"id":"in-array","at":"${at}","op":"lists"}]\n`, null],
    [`${'\u0000'.repeat(100)}\n`, null],
  ];
  for (const [line] of oddLines) appendFileSync(asks(odd), line);
  const oddIds = oddLines.flatMap(([, id]) => (id ? [id] : []));
  sent += oddIds.length;

  // Wrong types for every argument of every operation, one at a time, all in one write.
  const wrongIds: string[] = [];
  const wrongLines: string[] = [];
  for (const spec of OPERATIONS) {
    for (const name of Object.keys(spec.args)) {
      for (const [w, value] of WRONG.entries()) {
        const id = `wrong-${spec.name}-${name}-${w}`;
        const args = Object.entries(spec.args).map(([key, arg]) => `${JSON.stringify(key)}:${key === name ? value : fitting(key, arg as ArgSpec)}`);
        wrongLines.push(`{"id":${JSON.stringify(id)},"at":"${new Date().toISOString()}","op":${JSON.stringify(spec.name)},"args":{${args.join(',')}}}\n`);
        wrongIds.push(id);
      }
    }
  }
  appendFileSync(asks(odd), wrongLines.join(''));
  sent += wrongIds.length;

  // A line with no newline that grows slowly past the longest line read, then ends; then a good ask.
  for (let piece = 0; piece < 24; piece++) {
    appendFileSync(asks(slow), piece === 0 ? `{"id":"slow","at":"${new Date().toISOString()}","op":"add","args":{"title":"` : 'b'.repeat(4096));
    await pace(25);
  }
  appendFileSync(asks(slow), `"}}\n${askLine('after-slow', 'add', { list: 'tasks', title: 'after slow' })}`);
  // A good ask written slowly, in pieces, is answered once it is whole.
  const pieces = askLine('slow-good', 'add', { list: 'tasks', title: 'slow but good' });
  for (let i = 0; i < pieces.length; i += 16) {
    appendFileSync(asks(slow), pieces.slice(i, i + 16));
    await pace(10);
  }
  sent += 2;

  // Truncated and rotated mid-run.
  const turnIds: string[] = [];
  const write = (prefix: string, n: number, how: 'append' | 'truncate' = 'append') => {
    const ids = Array.from({ length: n }, (_, i) => `${prefix}-${i}`);
    const text = ids.map((id) => askLine(id, 'note', { id: 1, text: id })).join('');
    if (how === 'truncate') truncateSync(asks(turn), 0);
    appendFileSync(asks(turn), text);
    return ids;
  };
  const missing = (dir: string, ids: string[]) => { const got = new Set(answersIn(dir).map((a) => a.ask)); return ids.filter((id) => !got.has(id)); };
  const all = async (dir: string, ids: string[]) => {
    try {
      await until(() => missing(dir, ids).length === 0, 30_000, 'the answers');
    } catch {
      assert.fail(`no answer to ${missing(dir, ids).slice(0, 8).join(', ')} (${missing(dir, ids).length} in all); the keeper said: ${keeper.err().slice(-2000)}`);
    }
  };
  turnIds.push(...write('turn-a', 100));
  await all(turn, turnIds);
  turnIds.push(...write('turn-b', 10, 'truncate'));
  await all(turn, turnIds);
  // Truncated, then more written than was there before.
  turnIds.push(...write('turn-c', 300, 'truncate'));
  await all(turn, turnIds);
  renameSync(asks(turn), join(turn, 'asks.1'));
  turnIds.push(...write('turn-d', 20));
  await all(turn, turnIds);
  // A long backlog cut short while it is being read: what follows the cut is answered.
  const cut = write('turn-e', 5000);
  turnIds.push(...write('turn-f', 5, 'truncate'));
  sent += turnIds.length;

  await answerTo(big, 'after-huge', 60_000);
  await all(burst, Array.from({ length: 1000 }, (_, i) => `burst-${i}`));
  await all(odd, [...oddIds, ...wrongIds]);
  await answerTo(slow, 'after-slow');
  await answerTo(slow, 'slow-good');
  await all(turn, turnIds);
  // A last good ask, read after everything else in its folder.
  appendFileSync(asks(odd), askLine('last', 'add', { list: 'tasks', title: 'last' }));
  const last = await answerTo(odd, 'last');
  sent += 1;
  clearInterval(sampler);
  peak = Math.max(peak, residentBytes(keeper.pid) ?? 0);
  assert.equal(keeper.exited(), false, `the keeper is running: ${keeper.err()}`);

  // Memory bounded, though a 100 MB line went through.
  assert.ok(peak < RSS_BOUND, `the keeper's resident memory peaked at ${Math.round(peak / 1048576)} MB`);
  // Nothing failed inside the keeper: every answer is a sentence of the catalog.
  const answers = dirs.flatMap((dir) => answersIn(dir));
  const failed = answers.filter((a) => /the keeper failed on/i.test(a.text));
  assert.deepEqual(failed.map((a) => `${a.ask}: ${a.text}`), []);
  assert.doesNotMatch(keeper.err(), /failed/, 'no failure on the keeper\'s stderr');
  // Each well-formed ask answered once; the others not at all.
  assert.deepEqual(dirs.flatMap(answeredTwice), []);
  const answered = new Set(answers.map((a) => a.ask));
  for (const id of ['utf8', 'in-array']) assert.equal(answered.has(id), false, `${id} is not an ask`);
  // Over-long lines are not read, but their asker is told, by the id at their start.
  for (const id of ['huge', 'slow']) {
    const refusal = answers.find((a) => a.ask === id);
    assert.equal(refusal?.ok, false, `${id} is refused`);
    assert.match(refusal!.text, /^Too long: /);
  }
  const cutAnswered = cut.filter((id) => answered.has(id)).length;
  assert.equal(answers.length, sent + 2 + cutAnswered, 'every well-formed ask answered, each over-long one refused, and nothing else');
  // Nothing reached a prototype: the record made with __proto__ keys is as any other.
  const record = (title: string) => dbOf(store).prepare('SELECT state, owners FROM records WHERE title = ?').get(title) as { state: string; owners: string } | undefined;
  assert.deepEqual(record('proto'), { state: 'to-do', owners: '[]' });
  assert.deepEqual(record('ctor'), { state: 'to-do', owners: '[]' });
  // Its answer is words (and their next steps as data), never the JSON a __proto__ key could not ask for.
  assert.deepEqual(Object.keys(answersIn(odd).find((a) => a.ask === 'proto-line')!).filter((k) => k !== 'steps' && k !== 'sentence'), ['ask', 'at', 'ok', 'text'], 'no json wanted by a __proto__ key');
  assert.deepEqual(Object.keys(last), ['ask', 'at', 'ok', 'text']);
  assert.equal(last.ok, true);
  for (const op of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
    assert.match(answersIn(odd).find((a) => a.ask === `op-${op}`)!.text, /There is no operation/);
  }
  // The over-long lines said on stderr, once each.
  assert.equal(keeper.err().split('\n').filter((l) => l.includes(`longer than ${LINE_MAX} bytes`)).length, 2, keeper.err());
  assert.equal(await keeper.stop(), 0);
  assert.equal(integrity(store), 'ok');
  t.diagnostic(JSON.stringify({
    sent, answered: answers.length, wrongTypes: wrongIds.length, cutBacklog: cut.length, cutAnswered,
    keeperPeakRssMB: Math.round(peak / 1048576), records: count(store, 'SELECT count(*) FROM records'),
    stderr: keeper.err().split('\n').filter(Boolean),
  }));
});
