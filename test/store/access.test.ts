/**
 * Access: an agent reads only the lists it was granted, writes only where it may write, and
 * never learns of a list it was not given: hidden is worded exactly as absent.
 */
import assert from 'node:assert/strict';
import { ann, bot, refusal, spy, withBatches, eachStore } from './helpers.js';

eachStore('a hidden list and its records are refused in the words used for absent ones', async () => {
  const f = await withBatches();
  try {
    await f.store.createList({ template: 'tasks', title: 'Secret plans' }, ann);
    const hidden = await f.store.add('secret-plans', { title: 'hidden hamster', note: 'hamster' }, ann);
    const absentList = await refusal(() => f.store.show('nothing-here', bot));
    assert.equal(absentList, 'There is no list "nothing-here" you can see: binder lists shows yours.');
    assert.equal(await refusal(() => f.store.show('secret-plans', bot)), 'There is no list "secret-plans" you can see: binder lists shows yours.');
    assert.equal(await refusal(() => f.store.list('Secret plans', bot)), 'There is no list "Secret plans" you can see: binder lists shows yours.');
    assert.equal(await refusal(() => f.store.add('secret-plans', { title: 'x' }, bot)), 'There is no list "secret-plans" you can see: binder lists shows yours.');
    assert.equal(await refusal(() => f.store.get(hidden.id, bot)), `There is no record #${hidden.id} you can see.`);
    assert.equal(await refusal(() => f.store.get(99999, bot)), 'There is no record #99999 you can see.');
    assert.equal(await refusal(() => f.store.note(hidden.id, 'x', bot)), `There is no record #${hidden.id} you can see.`);
    const mine = await f.store.add('batches', { title: 'mine' }, bot);
    assert.equal(await refusal(() => f.store.attach(mine.id, { kind: 'record', ref: `#${hidden.id}` }, bot)),
      `There is no record #${hidden.id} you can see.`);
    assert.deepEqual((await f.store.lists(bot)).map((l) => l.id), ['batches']);
    assert.deepEqual(await f.store.search('hamster', bot), []);
    assert.equal((await f.store.search('hamster', ann)).length, 1);
  } finally {
    await f.done();
  }
});

eachStore('read access lets an agent read but not change', async () => {
  const f = await withBatches();
  try {
    await f.store.grant('batches', 'spy', 'read', ann);
    const r = await f.store.add('batches', { title: 'readable' }, bot);
    assert.equal((await f.store.get(r.id, spy)).record.title, 'readable');
    assert.equal((await f.store.show('Batches', spy)).access, 'read');
    assert.equal((await f.store.lists(spy))[0]!.access, 'read');
    const sentence = 'You may only read "Batches": ask a person to give you write access to it.';
    assert.equal(await refusal(() => f.store.add('batches', { title: 'x' }, spy)), sentence);
    assert.equal(await refusal(() => f.store.edit(r.id, { title: 'y' }, spy)), sentence);
    assert.equal(await refusal(() => f.store.move(r.id, 'Proposed', spy)), sentence);
    assert.equal(await refusal(() => f.store.note(r.id, 'n', spy)), sentence);
    assert.equal(await refusal(() => f.store.attach(r.id, { kind: 'link', ref: 'https://x.example' }, spy)), sentence);
    assert.equal(await refusal(() => f.store.archive(r.id, true, spy)), sentence);
    assert.equal((await f.store.get(r.id, ann)).record.title, 'readable');
  } finally {
    await f.done();
  }
});

eachStore('an agent sees only its own access, and taking access away hides the list', async () => {
  const f = await withBatches();
  try {
    await f.store.grant('batches', 'spy', 'read', ann);
    assert.deepEqual((await f.store.list('batches', spy)).access, { 'agent:spy': 'read' });
    assert.deepEqual((await f.store.list('batches', ann)).access, { 'agent:bot': 'write', 'agent:spy': 'read' });
    await f.store.grant('batches', 'agent:spy', null, ann);
    assert.deepEqual(await f.store.lists(spy), []);
    assert.match(await refusal(() => f.store.grant('batches', 'person:bea', 'read', ann)), /People see and change every list/);
  } finally {
    await f.done();
  }
});

eachStore('an archived list is invisible to agents and stays a person\'s', async () => {
  const f = await withBatches();
  try {
    const r = await f.store.add('batches', { title: 'shelved thing' }, bot);
    await f.store.archiveList('batches', true, ann);
    assert.deepEqual(await f.store.lists(bot), []);
    assert.equal(await refusal(() => f.store.show('batches', bot)), 'There is no list "batches" you can see: binder lists shows yours.');
    assert.equal(await refusal(() => f.store.get(r.id, bot)), `There is no record #${r.id} you can see.`);
    assert.deepEqual(await f.store.search('shelved', bot), []);
    assert.deepEqual(await f.store.lists(ann), [], 'out of the live lists');
    assert.equal((await f.store.lists(ann, { archived: true }))[0]!.archived, true);
    assert.equal(await refusal(() => f.store.lists(bot, { archived: true })),
      'Only a person can see the archived lists: a person does it on their screen or with `binder admin lists --archived`.');
    assert.equal((await f.store.show('batches', ann)).records.length, 1);
    await f.store.archiveList('batches', false, ann);
    assert.equal((await f.store.lists(bot)).length, 1);
  } finally {
    await f.done();
  }
});

eachStore('the operations that are a person\'s alone are refused to any agent', async () => {
  const f = await withBatches();
  try {
    const r = await f.store.add('batches', { title: 'x', note: 'first' }, bot);
    const noteId = (await f.store.get(r.id, ann)).record.notes[0]!.id;
    const cases: [string, () => unknown][] = [
      ['approve', () => f.store.approve(r.id, true, bot)],
      ['delete', () => f.store.delete(r.id, bot)],
      ['edit-note', () => f.store.editNote(r.id, noteId, 'rewritten', bot)],
      ['create-list', () => f.store.createList({ template: 'tasks' }, bot)],
      ['edit-list', () => f.store.editList('batches', { title: 'Mine now' }, bot)],
      ['grant', () => f.store.grant('batches', 'bot', 'write', bot)],
      ['archive-list', () => f.store.archiveList('batches', true, bot)],
      ['delete-list', () => f.store.deleteList('batches', bot)],
      ['side add', () => f.store.addSide('/tmp/x', 'Other', bot)],
      ['side remove', () => f.store.removeSide('Other', bot)],
    ];
    for (const [verb, run] of cases) {
      const sentence = await refusal(run);
      assert.match(sentence, /^Only a person can .+: a person does it on their screen or with `binder admin .+`\.$/);
      assert.ok(sentence.includes(`binder admin ${verb}`), sentence);
    }
    assert.equal((await f.store.lists(ann)).length, 1);
    assert.equal((await f.store.list('batches', ann)).title, 'Batches');
    assert.equal((await f.store.get(r.id, ann)).record.notes[0]!.text, 'first');
  } finally {
    await f.done();
  }
});
