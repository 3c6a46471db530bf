/**
 * The words of the keeper's own refusals: a person's operation asked by an agent reads as a
 * sentence of its own and names the `binder admin` command that exists; an operation's name is
 * quoted back as it was given (made safe), and `side add` is understood as side-add. No refusal
 * of the keeper's own starts with the "Not done: " every face puts before a refusal.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { openStore } from '../../src/store/index.js';
import { createPerform } from '../../src/keeper/perform.js';
import { agentWho, personWho } from '../../src/keeper/keeper.js';
import { OPERATIONS, adminWords, onlyAPerson } from '../../src/keeper/operations.js';
import { ASKED_BEFORE_TEXT, DISK_FULL_TEXT, FAILED_TEXT, NO_OP_TEXT, NO_TIME_TEXT, TOO_LATE_TEXT, aheadText, tooLongText } from '../../src/keeper/folder-pump.js';
import { binder } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp.js';

const ann = personWho('ann');
const bot = agentWho('Bot');

function setup(t: import('node:test').TestContext) {
  const store = openStore(tempDir(t));
  t.after(() => store.close());
  return createPerform({ store, log: () => {} });
}

test('a person\'s operation asked by an agent: one sentence of its own, naming a binder admin command that exists', async (t) => {
  const perform = setup(t);
  const said = new Set<string>();
  for (const op of OPERATIONS) {
    if (op.agents) continue;
    const answer = await perform(op.name, { id: 1, list: 'x' }, bot);
    assert.equal(answer.ok, false);
    assert.equal(answer.text, onlyAPerson(op));
    // "Only a person can templates." once: what follows "can" is what the operation does, a verb first.
    assert.match(answer.text, /^Only a person can (approve|delete|rewrite|list|make|change|give|archive|see|register|stop|revoke|remove) [a-z]/, answer.text);
    assert.ok(answer.text.endsWith(`or with binder admin ${adminWords(op).join(' ')}.`), answer.text);
    said.add(answer.text);
  }
  assert.equal(said.size, OPERATIONS.filter((o) => !o.agents).length, 'each its own sentence');
  assert.match((await perform('side-add', {}, bot)).text, /binder admin side add\.$/);
  assert.match((await perform('token-add', {}, bot)).text, /^Only a person can make an agent's token for HTTP: .* binder admin token add\.$/);
  assert.equal((await perform('token revoke', {}, bot)).text, (await perform('token-revoke', {}, bot)).text);
  assert.match((await perform('templates', {}, bot)).text, /^Only a person can list the templates lists are made from:/);
});

test('the binder admin command each sentence names exists', () => {
  for (const op of OPERATIONS) {
    if (op.agents) continue;
    const r = binder(['admin', ...adminWords(op), '--help']);
    assert.equal(r.code, 0, `binder admin ${adminWords(op).join(' ')} --help: ${r.err}`);
    assert.ok(r.out.replace(/\s+/g, ' ').includes(op.describe), `binder admin ${adminWords(op).join(' ')} is ${op.name}`);
  }
});

test('an operation\'s name is quoted as given, made safe; side add is side-add', async (t) => {
  const perform = setup(t);
  assert.equal((await perform('side add', {}, bot)).text, onlyAPerson(OPERATIONS.find((o) => o.name === 'side-add') as never));
  const asPerson = (await perform('side add', {}, ann)).text;
  assert.equal(asPerson, 'There is no operation "side add" (did you mean side-add?): binder --help lists them.');
  assert.ok(!asPerson.includes('sideadd'));
  assert.equal((await perform('frob nicate', {}, bot)).text, 'There is no operation "frob nicate": binder --help lists them.');
  const hostile = (await perform('x\u001b]0;PWN\u0007y\nz', {}, bot)).text;
  assert.equal(hostile, 'There is no operation "xy z": binder --help lists them.');
});

test('the keeper\'s own refusals (a failure, a full disk, the pump\'s) never start with the "Not done: " a face puts before them', async (t) => {
  const store = openStore(tempDir(t));
  t.after(() => store.close());
  const failing = (error: Error) => createPerform({ store: { ...store, transaction: () => { throw error; } } as typeof store, log: () => {} });
  const texts = [
    FAILED_TEXT, DISK_FULL_TEXT, TOO_LATE_TEXT, NO_TIME_TEXT, NO_OP_TEXT, ASKED_BEFORE_TEXT, aheadText(3_600_000),
    tooLongText({ bytes: 70_000, more: false }), tooLongText({ bytes: 0, more: true }),
  ];
  for (const lang of [undefined, 'fr'] as const) {
    texts.push((await failing(new TypeError('boom'))('lists', {}, bot, undefined, lang)).text);
    texts.push((await failing(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }))('lists', {}, bot, undefined, lang)).text);
  }
  for (const text of texts) assert.doesNotMatch(text, /^(Not done|Pas fait)\b/i, text);
  assert.equal(texts[9], 'The keeper failed on lists (its log says why): nothing was changed.');
  assert.match(texts[10]!, /^The disk that holds the binder is full/);
});

test('a folder given by a relative path is refused, and nothing is made where the keeper happens to run', async (t) => {
  const perform = setup(t);
  const operator = personWho('operator');
  const name = `binder-relative-${process.pid}`;
  const answer = await perform('side-add', { dir: `${name}/.binder`, name: 'Claude' }, operator);
  assert.equal(answer.ok, false);
  assert.equal(answer.text, `An agent's folder is given as an absolute path: "${name}/.binder" is not one.`);
  assert.equal(existsSync(name), false, 'no directory made in the keeper\'s working directory');
});
