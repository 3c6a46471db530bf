/**
 * A labels field: short words, the list's own set or free, set whole or label by label
 * (+bug -wontfix), found by label: in a query, and kept through export and import.
 */
import assert from 'node:assert/strict';
import { ann, bot, eachStore, fresh, refusal } from './helpers.js';

async function withLabels(own?: string[]) {
  const f = await fresh();
  await f.store.createList({ template: 'tasks' }, ann);
  await f.store.grant('tasks', 'agent:bot', 'write', ann);
  const list = await f.store.list('tasks', ann);
  await f.store.editList('tasks', {
    fields: [...list.fields.map((x) => ({ id: x.id, name: x.name, type: x.type, ...(x.choices ? { choices: x.choices } : {}) })),
      { name: 'Labels', type: 'labels', ...(own ? { choices: own } : {}) }],
  }, ann);
  return f;
}

eachStore('labels are set whole or one by one, each once, and found by label: in a query', async () => {
  const f = await withLabels();
  try {
    const a = await f.store.add('tasks', { title: 'Crash on save', fields: { Labels: 'Bug, ui bug' } }, bot);
    assert.equal(a.fields.labels, 'bug ui');
    const b = await f.store.add('tasks', { title: 'Old idea', fields: { Labels: 'wontfix' } }, bot);
    await f.store.add('tasks', { title: 'No labels' }, bot);
    const edited = await f.store.edit(a.id, { fields: { Labels: '+urgent -ui +bug' } }, bot);
    assert.equal(edited.fields.labels, 'bug urgent');
    const ids = async (q: string) => (await f.store.search(q, bot)).map((h) => h.id).sort((x, y) => x - y);
    assert.deepEqual(await ids('label:bug'), [a.id]);
    assert.deepEqual(await ids('label:BUG label:urgent'), [a.id]);
    assert.deepEqual(await ids('label:ui'), []);
    assert.deepEqual(await ids('label:wontfix OR label:urgent'), [a.id, b.id]);
    assert.equal((await ids('-label:wontfix')).length, 2);
    // A label is matched whole: a part of one, or a wildcard, finds nothing.
    assert.deepEqual(await ids('label:bu'), []);
    assert.deepEqual(await ids('label:%'), []);
    assert.match(await refusal(() => f.store.edit(b.id, { fields: { Labels: 'two words!' } }, bot)), /not one \(a short word/);
  } finally {
    await f.done();
  }
});

eachStore('a labels field with its own set takes only those labels', async () => {
  const f = await withLabels(['bug', 'feature']);
  try {
    const a = await f.store.add('tasks', { title: 'Crash', fields: { Labels: 'bug' } }, bot);
    assert.equal(a.fields.labels, 'bug');
    assert.match(await refusal(() => f.store.edit(a.id, { fields: { Labels: '+question' } }, bot)), /takes the labels bug, feature: "question" is not one/);
  } finally {
    await f.done();
  }
});

eachStore('labels given as labels: a bare word sets them, + adds, - takes away; a list with no labels field refuses them', async () => {
  const f = await withLabels(['bug', 'ui', 'urgent', 'wontfix']);
  try {
    const a = await f.store.add('tasks', { title: 'Crash', labels: ['bug', 'ui'] }, bot);
    assert.equal(a.fields.labels, 'bug ui');
    const edited = await f.store.edit(a.id, { labels: ['+urgent', '-ui'] }, bot);
    assert.equal(edited.fields.labels, 'bug urgent');
    assert.deepEqual(edited.changed, ['fields']);
    assert.equal((await f.store.edit(a.id, { labels: ['wontfix', '+bug'] }, bot)).fields.labels, 'wontfix bug', 'a bare word sets them all');
    assert.deepEqual((await f.store.edit(a.id, { labels: ['+bug'] }, bot)).changed, [], 'a label it has: no change');
    assert.match(await refusal(() => f.store.edit(a.id, { labels: ['+question'] }, bot)), /takes the labels bug, ui, urgent, wontfix: "question" is not one/);
    assert.equal((await f.store.get(a.id, bot)).record.fields.labels, 'wontfix bug', 'nothing was written');

    await f.store.createList({ template: 'blank', title: 'Plain' }, ann);
    await f.store.grant('plain', 'agent:bot', 'write', ann);
    assert.match(await refusal(() => f.store.add('plain', { title: 'X', labels: ['bug'] }, bot)), /"Plain" has no labels field/);
    const plain = await f.store.add('plain', { title: 'Y' }, bot);
    assert.match(await refusal(() => f.store.edit(plain.id, { labels: ['-bug'] }, bot)), /"Plain" has no labels field/);
  } finally {
    await f.done();
  }
});

eachStore('labels given both as labels and as the labels field by its name are refused, naming both, and nothing is written', async () => {
  const f = await withLabels();
  try {
    const both = /given twice, as labels and as the field Labels: give them one way/;
    assert.match(await refusal(() => f.store.add('tasks', { title: 'Crash', labels: ['bug'], fields: { Labels: 'ui' } }, bot)), both);
    assert.match(await refusal(() => f.store.add('tasks', { title: 'Crash', labels: ['bug'], fields: { labels: 'ui' } }, bot)), both, 'by its id too');
    assert.equal((await f.store.search('Crash', bot)).length, 0, 'nothing was added');
    const a = await f.store.add('tasks', { title: 'Crash', labels: ['bug'] }, bot);
    assert.match(await refusal(() => f.store.edit(a.id, { labels: ['+ui'], fields: { Labels: '-bug' }, title: 'Renamed' }, bot)), both);
    const kept = (await f.store.get(a.id, bot)).record;
    assert.equal(kept.fields.labels, 'bug');
    assert.equal(kept.title, 'Crash', 'nothing was changed');
    // Another field beside labels is no double.
    const fine = await f.store.edit(a.id, { labels: ['+ui'], fields: { Priority: 'High' } }, bot);
    assert.equal(fine.fields.labels, 'bug ui');
  } finally {
    await f.done();
  }
});
