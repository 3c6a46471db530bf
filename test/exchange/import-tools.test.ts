/**
 * Other tools' files brought into a list, from fixtures the tools write (Taskwarrior's own
 * export; Beads' and GitHub's in their documented shape, see test/fixtures/exchange/README.md):
 * the format recognised, each thing where it belongs, what has no place left out and said,
 * never approved unless asked, and a bad item named by its line with nothing written.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.js';
import { binder, ROOT } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp.js';
import { dumpStore } from '../survival/fuzz-kit.js';

const ann = { id: 'person:ann', kind: 'person' as const, name: 'ann' };
const FIXTURES = join(ROOT, 'test', 'fixtures', 'exchange');

async function place(t: import('node:test').TestContext) {
  const root = tempDir(t);
  const store = join(root, 'store');
  const s = openStore(store);
  await s.createList({ template: 'tasks', title: 'Work' }, ann);
  await s.createList({ template: 'batches' }, ann);
  await s.close();
  // Taskwarrior's dates are UTC; Binder's due dates are local: the tests read them in UTC.
  const admin = (...args: string[]) => binder(['admin', '--store', store, '--as', 'ann', ...args], { env: { TZ: 'UTC' } });
  return { root, store, admin };
}

const states = async (store: string, list: string) => {
  const s = openStore(store);
  try {
    return (await s.show(list, ann)).records.map((r) => [r.title, r.state, r.approved?.by.id ?? null]);
  } finally {
    await s.close();
  }
};

test('taskwarrior: task export comes in — pending, started, completed; deleted and recurring templates left out', async (t) => {
  const { admin, store } = await place(t);
  const done = admin('import', join(FIXTURES, 'taskwarrior-export.json'), '--into', 'Work');
  assert.equal(done.code, 0, done.err);
  assert.equal(done.out, 'Imported 5 records into work (#1 to #5).\n1 need between them.\n'
    + 'Left out: 1 deleted task; 1 recurring task (their pending instances came in); projects (Work has no field Project); tags (Work has no field Tags).\n');
  assert.deepEqual(await states(store, 'work'), [
    ['Buy seeds', 'to-do', null], ['Plant tomatoes', 'to-do', null], ['Water the plants', 'to-do', null],
    ['Write the garden plan', 'doing', null], ['Order compost', 'done', null],
  ]);
  const s = openStore(store);
  t.after(() => s.close());
  const seeds = (await s.get(1, ann)).record;
  assert.deepEqual([seeds.due, seeds.fields, seeds.created], ['2026-12-20', { priority: 'High' }, '2026-12-01T15:50:18.000Z']);
  assert.deepEqual((await s.get(2, ann)).needs!.map((l) => l.id), [1]);
  assert.equal((await s.get(2, ann)).record.fields.priority, 'Normal');
  assert.equal((await s.get(3, ann)).record.notes[0]!.text, 'ask Bea about the layout');
  const compost = await s.get(5, ann);
  assert.deepEqual([compost.record.due, compost.record.fields.priority], ['2026-12-10 09:30', 'Low']);
  assert.deepEqual(compost.history.map((h) => [h.op, h.change]), [['import', { from: 'taskwarrior', ref: '65c67fe6-44f7-41cc-922c-5836605b41ae' }]]);
  assert.deepEqual((await s.ready('work', ann)).lists[0]!.records.map((r) => r.id), [1, 3, 4], 'Plant tomatoes waits on Buy seeds');
});

test('taskwarrior: a completed task past a gate is refused unless the person approves them all', async (t) => {
  const { admin, store } = await place(t);
  const s = openStore(store);
  const before = dumpStore(s.db);
  await s.close();
  const refused = admin('import', join(FIXTURES, 'taskwarrior-export.json'), '--into', 'batches');
  assert.equal(refused.code, 1);
  assert.match(refused.err, /^Not done: Line 4: "Doing" is past the gate "Approved" of Batches, and an imported record is not approved/);
  const after = openStore(store);
  assert.equal(dumpStore(after.db), before);
  await after.close();
  const approved = admin('import', join(FIXTURES, 'taskwarrior-export.json'), '--into', 'batches', '--approved');
  assert.equal(approved.code, 0, approved.err);
  assert.deepEqual((await states(store, 'batches')).map(([title, state, by]) => `${title}:${state}:${by}`), [
    'Buy seeds:proposed:person:ann', 'Plant tomatoes:proposed:person:ann', 'Water the plants:proposed:person:ann',
    'Write the garden plan:doing:person:ann', 'Order compost:done:person:ann',
  ]);
});

test('beads: issues.jsonl comes in — statuses, blocks as needs, parent-child as the parent, other links attached, texts as notes', async (t) => {
  const { admin, store } = await place(t);
  assert.equal(admin('edit-list', 'work', '--add-field', 'Labels:text', '--add-field', 'Type:text').code, 0);
  const done = admin('import', join(FIXTURES, 'beads-issues.jsonl'), '--into', 'Work');
  assert.equal(done.code, 0, done.err);
  assert.equal(done.out, 'Imported 5 records into work (#1 to #5).\n3 needs between them.\n1 record under another of them.\nLeft out: 1 deleted issue; 1 link to issues not in the file.\n');
  assert.deepEqual((await states(store, 'work')).map(([title, state]) => `${title}:${state}`), [
    'Publish 0.4:to-do', 'Announce 0.4 on the forum:to-do', 'Flaky test in the sync package:to-do',
    'Write the changelog for 0.4:doing', 'Set up the release workflow:done',
  ]);
  const s = openStore(store);
  t.after(() => s.close());
  const release = (await s.get(1, ann)).record;
  assert.deepEqual(release.fields, { priority: 'High', labels: 'ci, release', type: 'feature' });
  assert.deepEqual(release.owners, ['person:claude']);
  assert.deepEqual(release.notes.map((n) => n.text.split('\n')[0]), [
    'Build and sign the binaries on every tag.', 'Design: One job per platform; the signing key from the secrets.',
    'Acceptance criteria: A tag makes a draft release with the three binaries.', 'Closed: Done in the workflow file',
  ]);
  assert.equal(release.created, '2025-11-02T17:14:03.123Z');
  assert.equal((await s.get(2, ann)).record.notes[0]!.text, 'ann: Group the entries by area.');
  const publish = await s.get(3, ann);
  assert.deepEqual(publish.needs!.map((l) => l.id), [2]);
  assert.deepEqual(publish.record.attached.map((a) => [a.kind, a.ref, a.title]), [['record', '#1', 'related']]);
  // A parent-child link makes the child lie under its parent.
  const child = await s.get(4, ann);
  assert.equal(child.parent!.id, 3);
  assert.deepEqual(child.record.attached, []);
  assert.equal((await s.get(5, ann)).record.fields.priority, 'Normal');
});

test('beads: a broken line is named and nothing is written; a circle of blocks is refused', async (t) => {
  const { admin, root, store } = await place(t);
  const lines = readFileSync(join(FIXTURES, 'beads-issues.jsonl'), 'utf8').trimEnd().split('\n');
  const broken = join(root, 'broken.jsonl');
  writeFileSync(broken, [...lines.slice(0, 3), '{"id":"bd-x","title":', ...lines.slice(3)].join('\n'));
  const s = openStore(store);
  const before = dumpStore(s.db);
  await s.close();
  const refused = admin('import', broken, '--into', 'work');
  assert.equal(refused.code, 1);
  assert.match(refused.err, /^Not done: Line 4: this is not JSON/);
  const circle = join(root, 'circle.jsonl');
  writeFileSync(circle, [
    '{"id":"bd-1","title":"One","status":"open","dependencies":[{"issue_id":"bd-1","depends_on_id":"bd-2","type":"blocks"}]}',
    '{"id":"bd-2","title":"Two","status":"open","dependencies":[{"issue_id":"bd-2","depends_on_id":"bd-1","type":"blocks"}]}',
  ].join('\n'));
  const round = admin('import', circle, '--into', 'work');
  assert.equal(round.code, 1);
  assert.match(round.err, /^Not done: Line 1: its needs close a circle \("bd-1" needs "bd-2" needs "bd-1"\)/);
  const after = openStore(store);
  t.after(() => after.close());
  assert.equal(dumpStore(after.db), before);
});

test('github: gh issue list --json comes in — open and closed, comments, assignees, labels, the issue\'s page', async (t) => {
  const { admin, store, root } = await place(t);
  assert.equal(admin('edit-list', 'work', '--add-field', 'Labels:text').code, 0);
  const done = admin('import', join(FIXTURES, 'github-issues.json'), '--into', 'Work');
  assert.equal(done.code, 0, done.err);
  assert.equal(done.out, 'Imported 3 records into work (#1 to #3).\nLeft out: milestones (Work has no field Milestone).\n');
  assert.deepEqual((await states(store, 'work')).map(([title, state]) => `${title}:${state}`), [
    'Dark mode on the login page:to-do', 'Update the footer links:done', 'Bump left-pad from 1.0 to 1.1:done',
  ]);
  const s = openStore(store);
  t.after(() => s.close());
  const dark = (await s.get(1, ann)).record;
  assert.deepEqual(dark.owners, ['person:octocat']);
  assert.deepEqual(dark.fields, { labels: 'bug, ui' });
  assert.deepEqual(dark.notes.map((n) => [n.text.split('\r\n')[0], n.at]), [
    ['hubot: The login page ignores the dark theme.', '2026-10-01T12:00:00Z'], ['octocat: I can reproduce it on Firefox.', '2026-10-02T08:15:00Z'],
  ]);
  assert.deepEqual(dark.attached.map((a) => [a.kind, a.ref]), [['link', 'https://github.com/acme/site/issues/12']]);
  assert.equal((await s.get(3, ann)).record.notes.at(-1)!.text, 'Closed on GitHub as not planned.');

  // Pretty-printed, as jq writes it: a bad issue is named by the line it starts on.
  const issues = JSON.parse(readFileSync(join(FIXTURES, 'github-issues.json'), 'utf8')) as { title: string }[];
  issues[2]!.title = '';
  const pretty = join(root, 'pretty.json');
  const text = JSON.stringify(issues, null, 2);
  writeFileSync(pretty, text);
  // Its "{" is two lines above its author (after "assignees": []).
  const line = text.slice(0, text.indexOf('"author": {\n      "is_bot": true')).split('\n').length - 2;
  const refused = admin('import', pretty, '--into', 'work');
  assert.equal(refused.code, 1);
  assert.equal(refused.err, `Not done: Line ${line}: A title cannot be empty: give a few words.\nNothing was imported.\n`);
});

test('a file of no known format is refused with what to say instead', async (t) => {
  const { admin, root } = await place(t);
  const odd = join(root, 'odd.json');
  writeFileSync(odd, '[{"name": "not an issue"}]');
  const refused = admin('import', odd, '--into', 'work');
  assert.equal(refused.code, 1);
  assert.match(refused.err, /^Not done: Binder cannot tell what .*odd\.json holds: say it with --format json\|csv\|taskwarrior\|beads\|github\./);
  assert.match(admin('import', join(root, 'missing.json')).err, /^Not done: Binder cannot read .*missing\.json: no such file or directory/);
});
