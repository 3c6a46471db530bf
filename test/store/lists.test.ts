/**
 * Lists: templates in English and French, ids made from titles, editing states (renames,
 * reorders, removals), fields and views, and the order lists come in.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { slug } from '../../src/store/index.js';
import { ann, bot, fresh, refusal, eachStore } from './helpers.js';

test('slug: lowercase ASCII, accents removed, other characters dashes', () => {
  assert.equal(slug('Feuille de route'), 'feuille-de-route');
  assert.equal(slug('  Tâches — été 2026!  '), 'taches-ete-2026');
  assert.equal(slug('Œuvre & Co'), 'oeuvre-co');
  assert.equal(slug('***'), '');
});

eachStore('every template exists in English and French, with its states and fields', async () => {
  const f = await fresh();
  try {
    const en = f.store.templates('en');
    const fr = f.store.templates('fr');
    assert.deepEqual(en.map((t) => t.id), ['batches', 'tasks', 'customers', 'people', 'roadmap', 'blank']);
    assert.deepEqual(fr.map((t) => t.id), en.map((t) => t.id));
    assert.deepEqual(fr.map((t) => t.title), ['Lots', 'Tâches', 'Clients', 'Personnes', 'Feuille de route', 'Vide']);
    for (const t of en) {
      const made = await f.store.createList({ template: t.id }, ann);
      assert.equal(made.title, t.title);
      assert.equal(made.states[0]!.gate, false);
    }
    const lots = await f.store.createList({ template: 'batches', lang: 'fr' }, ann);
    assert.equal(lots.id, 'lots');
    assert.deepEqual(lots.states.map((s) => [s.name, s.gate]),
      [['Proposé', false], ['Approuvé', true], ['En cours', false], ['Fait', false]]);
    assert.deepEqual(lots.states.map((s) => s.id), ['propose', 'approuve', 'en-cours', 'fait']);
    const tasks = await f.store.list('tasks', ann);
    assert.deepEqual(tasks.fields.map((x) => [x.name, x.type]), [['Priority', 'choice'], ['Branch', 'text']]);
    const customers = await f.store.list('customers', ann);
    assert.deepEqual(customers.fields.map((x) => x.type), ['text', 'text', 'text', 'number']);
    assert.equal((await f.store.list('people', ann)).view, 'table');
    assert.deepEqual((await f.store.list('roadmap', ann)).states.map((s) => s.name), ['Idea', 'Planned', 'Building', 'Shipped']);
    assert.match(await refusal(() => f.store.createList({ template: 'kanban' }, ann)),
      /There is no template "kanban": use one of batches, tasks, customers, people, roadmap, blank\./);
  } finally {
    await f.done();
  }
});

eachStore('list ids are slugs of titles, made unique; the id stays when the title changes', async () => {
  const f = await fresh();
  try {
    assert.equal((await f.store.createList({ template: 'tasks', title: 'Été' }, ann)).id, 'ete');
    assert.equal((await f.store.createList({ template: 'tasks', title: 'ete' }, ann)).id, 'ete-2');
    assert.equal((await f.store.createList({ template: 'blank', title: 'ÉTÉ!' }, ann)).id, 'ete-3');
    const renamed = await f.store.editList('ete-2', { title: 'Winter' }, ann);
    assert.deepEqual([renamed.id, renamed.title], ['ete-2', 'Winter']);
    assert.equal((await f.store.list('winter', ann)).id, 'ete-2');
    assert.deepEqual((await f.store.lists(ann)).map((l) => l.id), ['ete', 'ete-2', 'ete-3'], 'in the order they were made');
  } finally {
    await f.done();
  }
});

eachStore('editList renames and reorders states by id, adds new ones, and refuses removing a full one', async () => {
  const f = await fresh();
  try {
    await f.store.createList({ template: 'tasks' }, ann);
    const r = await f.store.add('tasks', { title: 'in review', state: 'Review' }, ann);
    const [todo, doing, review, done] = (await f.store.list('tasks', ann)).states;
    const edited = await f.store.editList('tasks', {
      states: [
        { id: todo!.id, name: 'Backlog' },
        { name: 'Ready' },
        { id: review!.id, name: 'Checking', gate: true },
        { id: doing!.id, name: 'Doing' },
        { id: done!.id, name: 'Done' },
      ],
    }, ann);
    assert.deepEqual(edited.states.map((s) => [s.id, s.name, s.gate]), [
      ['to-do', 'Backlog', false], ['ready', 'Ready', false], ['review', 'Checking', true], ['doing', 'Doing', false], ['done', 'Done', false],
    ]);
    assert.equal((await f.store.get(r.id, ann)).record.state, 'review', 'the record follows its state');
    assert.equal((await f.store.show('tasks', ann, { state: 'Checking' })).records[0]!.id, r.id);
    const sentence = await refusal(() => f.store.editList('tasks', {
      states: edited.states.filter((s) => s.id !== 'review'),
    }, ann));
    assert.equal(sentence, '"Checking" still holds 1 record: move it to another state first.');
    assert.match(await refusal(() => f.store.editList('tasks', { states: [] }, ann)), /at least one state/);
    assert.match(await refusal(() => f.store.editList('tasks', { states: [{ name: 'A' }, { name: 'a' }] }, ann)), /Two states are named/);
    await f.store.move(r.id, 'Done', ann);
    const fewer = await f.store.editList('tasks', { states: edited.states.filter((s) => s.id !== 'review') }, ann);
    assert.equal(fewer.states.length, 4);
  } finally {
    await f.done();
  }
});

eachStore('editList: a removed field takes its values with it; view changes', async () => {
  const f = await fresh();
  try {
    await f.store.createList({ template: 'tasks' }, ann);
    const r = await f.store.add('tasks', { title: 't', fields: { branch: 'site:zephyrine', priority: 'Low' } }, ann);
    const list = await f.store.editList('tasks', {
      view: 'table',
      fields: [{ id: 'priority', name: 'Urgency', type: 'choice', choices: ['Low', 'High'] }, { name: 'Size', type: 'number' }],
    }, ann);
    assert.equal(list.view, 'table');
    assert.deepEqual(list.fields.map((x) => x.id), ['priority', 'size']);
    assert.deepEqual((await f.store.get(r.id, ann)).record.fields, { priority: 'Low' });
    assert.deepEqual(await f.store.search('zephyrine', ann), [], 'its words left the index');
    assert.equal((await f.store.edit(r.id, { fields: { urgency: 'high' } }, ann)).fields.priority, 'High');
    assert.match(await refusal(() => f.store.editList('tasks', { fields: [{ name: 'C', type: 'choice' }] }, ann)), /needs its choices/);
    assert.match(await refusal(() => f.store.editList('tasks', { fields: [{ name: 'C', type: 'colour' as 'text' }] }, ann)), /not a field type/);
  } finally {
    await f.done();
  }
});

eachStore('grant names an agent by id, by a side\'s name, or by a bare name', async () => {
  const f = await fresh();
  try {
    await f.store.createList({ template: 'tasks' }, ann);
    await f.store.addSide('/srv/claude/.binder', 'Claude Code', ann);
    assert.deepEqual((await f.store.grant('tasks', 'Claude Code', 'read', ann)).access, { 'agent:claude-code': 'read' });
    assert.deepEqual((await f.store.grant('tasks', 'Other Bot', 'write', ann)).access, { 'agent:claude-code': 'read', 'agent:other-bot': 'write' });
    assert.deepEqual((await f.store.grant('tasks', 'agent:bot', 'read', ann)).access['agent:bot'], 'read');
    assert.equal((await f.store.lists(bot))[0]!.access, 'read');
  } finally {
    await f.done();
  }
});
