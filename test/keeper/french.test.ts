/**
 * Refusals in a person's language: with `{ lang: 'fr' }` every refusal the store and the dispatch
 * can give reads in French, with the same facts; without it (or with 'en') it is the English one,
 * unchanged. And no refusal in the source is made without its French sentence.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createKeeper, agentWho, personWho } from '../../src/keeper/keeper.js';
import { Refused, type Who } from '../../src/store/index.js';
import { ROOT } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp.js';

const ann = personWho('ann');
const bot = agentWho('Bot');
const eve = agentWho('Eve');

/** Words only an English sentence would hold. */
const ENGLISH = [
  ' is not ', 'cannot', 'Only a person', 'Only its author', 'There is no', 'You may only', ' must be ',
  'not understood', 'Give ', 'Say what', ' needs ', 'is taken by', 'at most', 'Not done', ' is archived',
  'belongs to', 'Nothing ', 'ask a person', 'Ask a person', ' shows ', ' lists them',
];

interface Case {
  what: string;
  op: string;
  args: Record<string, unknown>;
  who: Who;
  /** The English refusal, as it has always read. */
  en: RegExp;
  /** The facts the French one must keep. */
  fr: RegExp;
}

async function setup(t: import('node:test').TestContext) {
  const keeper = createKeeper({ store: tempDir(t), log: () => {} });
  t.after(() => keeper.close());
  const ok = async (op: string, args: Record<string, unknown>, who: Who = ann) => {
    const a = await keeper.act(op, args, who);
    assert.equal(a.ok, true, `${op} should be done: ${a.text}`);
    return a.data as { id: number };
  };
  await ok('create-list', { template: 'batches', title: 'Batches' });
  await ok('create-list', { template: 'tasks', title: 'Tasks' });
  await ok('create-list', { template: 'blank', title: 'Secret' });
  await ok('grant', { list: 'batches', agent: 'Bot', access: 'write' });
  await ok('grant', { list: 'batches', agent: 'Eve', access: 'write' });
  await ok('grant', { list: 'tasks', agent: 'Bot', access: 'read' });
  const proposed = (await ok('add', { list: 'batches', title: 'Dark mode' }, bot)).id;
  const archived = (await ok('add', { list: 'batches', title: 'Old idea' })).id;
  await ok('archive', { id: archived });
  const taken = (await ok('add', { list: 'batches', title: 'Taken one' }, eve)).id;
  await ok('take', { id: taken }, eve);
  const hidden = (await ok('add', { list: 'secret', title: 'Hidden' })).id;
  await ok('note', { id: proposed, text: 'Started on it' }, bot);
  const note = (await keeper.store.get(proposed, ann)).record.notes[0]!.id;
  return { keeper, store: keeper.store, proposed, archived, taken, hidden, note };
}

test('every refusal reads in French for a French screen and in English otherwise, with the same facts', async (t) => {
  const { keeper, proposed, archived, taken, hidden, note } = await setup(t);
  const cases: Case[] = [
    { what: 'the gate', op: 'move', args: { id: proposed, state: 'Approved' }, who: bot, en: /is not approved: only a person can let it past "Approved"/, fr: new RegExp(`#${proposed}.*« Approved »`) },
    { what: 'starting past the gate', op: 'add', args: { list: 'batches', title: 'X', state: 'Doing' }, who: bot, en: /cannot start in "Doing"/, fr: /« Doing ».*« Approved ».*« Proposed »/ },
    { what: 'a hidden list', op: 'show', args: { list: 'secret' }, who: bot, en: /no list "secret" you can see/, fr: /« secret ».*binder lists/ },
    { what: 'a hidden record', op: 'get', args: { id: hidden }, who: bot, en: new RegExp(`no record #${hidden} you can see`), fr: new RegExp(`#${hidden}`) },
    { what: 'a read-only list', op: 'add', args: { list: 'tasks', title: 'X' }, who: bot, en: /only read "Tasks"/, fr: /« Tasks »/ },
    { what: 'a bad due date', op: 'add', args: { list: 'batches', title: 'X', due: 'tomorrowish' }, who: ann, en: /"tomorrowish" is not a due date/, fr: /« tomorrowish ».*2026-11-04/ },
    { what: 'an unknown field', op: 'add', args: { list: 'tasks', title: 'X', fields: { Colour: 'red' } }, who: ann, en: /"Colour" is not a field of "Tasks": its fields are Priority, Branch/, fr: /« Colour ».*« Tasks ».*Priority, Branch/ },
    { what: 'a choice not offered', op: 'add', args: { list: 'tasks', title: 'X', fields: { Priority: 'Urgent' } }, who: ann, en: /is one of High, Normal, Low/, fr: /High, Normal, Low.*« Urgent »/ },
    { what: 'an unknown state', op: 'move', args: { id: proposed, state: 'Limbo' }, who: ann, en: /"Limbo" is not a state of "Batches"/, fr: /« Limbo ».*« Batches ».*Proposed, Approved, Doing, Done/ },
    { what: 'an archived record', op: 'note', args: { id: archived, text: 'hello' }, who: bot, en: new RegExp(`#${archived} is archived: restore it first \\(binder restore ${archived}\\)`), fr: new RegExp(`#${archived}.*binder restore ${archived}`) },
    { what: 'not a record number', op: 'get', args: { id: 'abc' }, who: ann, en: /"abc" is not a record number/, fr: /« abc ».*12 ou #12/ },
    { what: 'an empty title', op: 'add', args: { list: 'batches', title: '   ' }, who: ann, en: /A title cannot be empty/, fr: /titre/ },
    { what: 'a person\'s operation asked by an agent', op: 'approve', args: { id: proposed }, who: bot, en: /Only a person can approve/, fr: /binder admin approve/ },
    { what: 'a missing argument', op: 'add', args: { list: 'batches' }, who: bot, en: /An ask to add needs title/, fr: /title.*add/ },
    { what: 'a malformed argument', op: 'show', args: { list: 'batches', offset: 'abc' }, who: ann, en: /The offset must be a whole number from 0\./, fr: /offset/ },
    { what: 'a choice argument', op: 'attach', args: { id: proposed, kind: 'nonsense', ref: 'x' }, who: ann, en: /The kind must be one of: message, file/, fr: /kind.*message, file/ },
    { what: 'an unknown operation', op: 'frobnicate', args: {}, who: bot, en: /no operation "frobnicate"/, fr: /« frobnicate ».*binder --help/ },
    { what: 'a record someone holds', op: 'take', args: { id: taken }, who: bot, en: new RegExp(`#${taken} is taken by Eve until .* UTC \\(in `), fr: /Eve.* UTC \(dans / },
    { what: 'giving back another\'s claim', op: 'release', args: { id: taken }, who: bot, en: /taken by Eve, not you/, fr: /Eve/ },
    { what: 'a bad claim length', op: 'take', args: { id: proposed, for: 'soon' }, who: bot, en: /Give --for a length/, fr: /--for/ },
    { what: 'a wait too long', op: 'wait', args: { timeout: '1h' }, who: bot, en: /A wait lasts at most 10m/, fr: /10m/ },
    { what: 'a note not one\'s own', op: 'edit-note', args: { id: proposed, note, text: 'mine now' }, who: ann, en: /Only its author, Bot, can rewrite note/, fr: /Bot.*note/ },
    { what: 'nothing attached', op: 'detach', args: { id: proposed, what: 'nothing-here' }, who: bot, en: /Nothing attached to #\d+ is "nothing-here"/, fr: /« nothing-here »/ },
    { what: 'an edit of a list that changes nothing', op: 'edit-list', args: { list: 'batches' }, who: ann, en: /Say what to change: --title/, fr: /--title/ },
    { what: 'access for a person', op: 'grant', args: { list: 'batches', agent: 'person:bob', access: 'read' }, who: ann, en: /access is granted to agents only/, fr: /agents/ },
    { what: 'an unknown template', op: 'create-list', args: { template: 'nope' }, who: ann, en: /no template "nope"/, fr: /« nope »/ },
    { what: 'an agent folder not registered', op: 'side-remove', args: { name: 'Nobody' }, who: ann, en: /no agent folder named "Nobody": binder admin sides lists them/, fr: /« Nobody ».*binder admin sides/ },
  ];
  for (const c of cases) {
    const before = JSON.stringify(await keeper.store.lists(ann, { archived: true }));
    const fr = await keeper.act(c.op, c.args, c.who, { lang: 'fr' });
    const en = await keeper.act(c.op, c.args, c.who, { lang: 'en' });
    const plain = await keeper.act(c.op, c.args, c.who);
    assert.equal(fr.ok, false, `${c.what}: refused in French too (${fr.text})`);
    assert.equal(en.ok, false, `${c.what}: refused`);
    assert.equal(plain.text, en.text, `${c.what}: English is the default`);
    assert.match(en.text, c.en, `${c.what}: the English sentence is unchanged`);
    assert.notEqual(fr.text, en.text, `${c.what}: the French sentence is not the English one`);
    assert.match(fr.text, c.fr, `${c.what}: the French sentence keeps the facts: ${fr.text}`);
    for (const word of ENGLISH) assert.ok(!fr.text.includes(word), `${c.what}: "${word}" in the French sentence: ${fr.text}`);
    assert.match(fr.text, /^[A-ZÀ-Ÿ«#-]/u, `${c.what}: a sentence: ${fr.text}`);
    assert.equal(JSON.stringify(await keeper.store.lists(ann, { archived: true })), before, `${c.what}: nothing changed`);
  }
});

test('a refusal the store throws carries its French sentence, with the same facts', async (t) => {
  const { store, proposed } = await setup(t);
  await assert.rejects(async () => store.approve(proposed, true, bot), (error: unknown) => {
    assert.ok(error instanceof Refused);
    assert.match(error.message, /^Only a person can approve a record/);
    assert.match(error.fr ?? '', /^Seule une personne peut approuver une fiche.*binder admin approve/);
    return true;
  });
  await assert.rejects(async () => store.deleteList('batches', bot), (error: unknown) => {
    assert.ok(error instanceof Refused);
    assert.match(error.fr ?? '', /^Seule une personne peut supprimer une liste/);
    return true;
  });
});

/** The argument list of each `new Refused(` in `text`: the text between its balanced parentheses. */
function refusedCalls(text: string): string[] {
  const calls: string[] = [];
  for (let at = text.indexOf('new Refused('); at >= 0; at = text.indexOf('new Refused(', at + 1)) {
    let depth = 0;
    let quote: string | null = null;
    let end = at + 'new Refused'.length;
    for (; end < text.length; end++) {
      const ch = text[end]!;
      if (quote) {
        if (ch === '\\') end++;
        else if (ch === quote) quote = null;
        continue;
      }
      if (ch === '\'' || ch === '"' || ch === '`') quote = ch;
      else if (ch === '(') depth++;
      else if (ch === ')' && --depth === 0) break;
    }
    calls.push(text.slice(at + 'new Refused('.length, end));
  }
  return calls;
}

test('every refusal in the store is said from its word tables, and the keeper\'s with its French sentence', () => {
  // The store's rules name a refusal (`refusal('noList', [ref])`): its sentences, in each
  // language, live in src/store/words alone, and none is written in a rule file.
  const stored = ['src/store', 'src/store/dialect', 'src/store/sql'].flatMap((folder) =>
    readdirSync(join(ROOT, folder)).filter((n) => n.endsWith('.ts')).map((n) => join(folder, n)));
  assert.ok(stored.length > 40);
  for (const path of stored) {
    assert.deepEqual(refusedCalls(readFileSync(join(ROOT, path), 'utf8')), [], `${path} writes a refusal's sentence: it belongs in src/store/words`);
  }
  let seen = 0;
  for (const folder of ['src/keeper']) {
    for (const name of readdirSync(join(ROOT, folder)).filter((n) => n.endsWith('.ts'))) {
      const text = readFileSync(join(ROOT, folder, name), 'utf8');
      for (const args of refusedCalls(text)) {
        seen++;
        // Two arguments: a comma at depth 0, outside quotes and template literals.
        let depth = 0;
        let quote: string | null = null;
        let commas = 0;
        for (let i = 0; i < args.length; i++) {
          const ch = args[i]!;
          if (quote) {
            if (ch === '\\') i++;
            else if (ch === quote) quote = null;
            continue;
          }
          if (ch === '\'' || ch === '"' || ch === '`') quote = ch;
          else if ('([{'.includes(ch)) depth++;
          else if (')]}'.includes(ch)) depth--;
          else if (ch === ',' && depth === 0 && args.slice(i + 1).trim() !== '') commas++;
        }
        // The English sentence, the French one, and perhaps what it is about (a RefusalKind).
        assert.ok(commas === 1 || commas === 2, `${folder}/${name}: new Refused(${args.slice(0, 80)}…) needs its French sentence`);
      }
    }
  }
  assert.ok(seen > 10, `the check found the refusals (${seen})`);
});
