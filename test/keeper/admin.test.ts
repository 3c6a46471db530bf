/**
 * `binder admin` as a person uses it from a shell: every kind of operation, the same answers and
 * exit codes as `binder` (0 done, 1 refused, 64 not understood), 2 for a store it cannot open.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { binder, serveKeeper } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp.js';
import { cluster, dropDatabase, postgresMissing } from '../helpers/postgres.js';

function adminIn(t: import('node:test').TestContext) {
  const root = tempDir(t);
  const store = join(root, 'store');
  return { root, store, admin: (...args: string[]) => binder(['admin', '--store', store, '--as', 'ann', ...args]) };
}

test('a person makes, edits, grants, archives and deletes lists', (t) => {
  const { admin, root } = adminIn(t);
  const made = admin('create-list', 'Site work', '--template', 'batches');
  assert.equal(made.code, 0, made.err);
  assert.match(made.out, /site-work: Site work \(board\); states Proposed → Approved \(gate\) → Doing → Done/);
  const fr = admin('create-list', '--template', 'tasks', '--lang', 'fr');
  assert.equal(fr.code, 0, fr.err);
  assert.match(fr.out, /Tâches/);

  const twoGates = admin('edit-list', 'site-work', '--add-state', 'Review', '--move-state', 'Review=4', '--gate', 'Review');
  assert.equal(twoGates.code, 1);
  assert.match(twoGates.err, /A list has one gate, and "Approved" and "Review" would be 2/);
  const edited = admin('edit-list', 'site-work', '--title', 'Site', '--add-state', 'Review', '--move-state', 'Review=4', '--gate', 'Review', '--ungate', 'Approved', '--add-field', 'size:choice:S|M|L', '--view', 'table');
  assert.equal(edited.code, 0, edited.err);
  assert.match(edited.out, /Site \(table\); states Proposed → Approved → Doing → Review \(gate\) → Done; fields size:choice/);
  const badState = admin('edit-list', 'site-work', '--rename-state', 'Nope=Yes');
  assert.equal(badState.code, 1);
  assert.match(badState.err, /no state "Nope": its states are Proposed, Approved, Doing, Review, Done/);
  assert.equal(admin('edit-list', 'site-work').code, 1);

  mkdirSync(join(root, 'a', '.binder'), { recursive: true });
  assert.equal(admin('side', 'add', join(root, 'a', '.binder'), 'Claude').code, 0);
  assert.match(admin('sides').out, /Claude \(agent:claude\)/);
  assert.match(admin('grant', 'site-work', 'Claude', 'read').out, /Claude may now read site-work/);
  assert.match(admin('grant', 'site-work', 'Claude', 'none').out, /no access/);
  assert.equal(admin('side', 'remove', 'Claude').code, 0);
  assert.doesNotMatch(admin('sides').out, /Claude/);

  assert.match(admin('archive-list', 'site-work').out, /Archived the list site-work/);
  assert.match(admin('archive-list', 'site-work', '--restore').out, /Restored/);
  const gone = admin('delete-list', 'site-work', '--yes');
  assert.equal(gone.code, 0);
  assert.match(gone.out, /Deleted the list site-work/);
  assert.equal(admin('show', 'site-work').code, 1);
});

test('a person\'s record operations: the agents\' verbs as the person, approve, withdraw, edit-note, delete', (t) => {
  const { admin } = adminIn(t);
  admin('create-list', 'Batches', '--template', 'batches');
  const added = admin('add', 'Batches', 'Dark', 'mode', '--note', 'first note', '--field', 'nothing=1');
  assert.equal(added.code, 1, 'an unknown field is refused');
  const ok = admin('add', 'Batches', 'Dark', 'mode', '--note', 'first note', '--due', '2026-12-01 09:00', '--owner', 'me');
  assert.equal(ok.code, 0, ok.err);
  const id = /#(\d+)/.exec(ok.out)![1]!;
  // A person's own move past the gate approves.
  assert.match(admin('move', id, 'Doing').out, /is now in Doing/);
  const view = JSON.parse(admin('--json', 'get', id).out) as { record: { approved: { by: { id: string } } | null; owners: string[]; notes: { id: number }[] } };
  assert.equal(view.record.approved?.by.id, 'person:ann');
  assert.deepEqual(view.record.owners, ['person:ann']);
  const withdrawn = admin('approve', id, '--withdraw');
  assert.match(withdrawn.out, /Withdrew the approval of #\d+; it is in Proposed/);
  assert.match(admin('approve', `#${id}`).out, /Approved/);
  const note = view.record.notes[0]!.id;
  assert.equal(admin('edit-note', id, String(note), 'a better note').code, 0);
  assert.match(admin('get', id).out, /a better note \(edited\)|ann \(edited\): a better note/);
  const del = admin('delete', id, '--yes');
  assert.match(del.out, new RegExp(`Deleted #${id} for good, with 1 note\\.`));
  assert.equal(admin('get', id).code, 1);
});

test('not understood is 64 with the nearest verb; a store that cannot be opened is 2 with one sentence', (t) => {
  const { admin, root } = adminIn(t);
  const typo = admin('aprove', '12');
  assert.equal(typo.code, 64);
  assert.match(typo.err, /Did you mean approve\?/);
  assert.equal(admin('grant', 'x', 'y', 'everything').code, 64);
  const file = join(root, 'not-a-folder');
  writeFileSync(file, 'x');
  const r = binder(['admin', '--store', file, 'lists']);
  assert.equal(r.code, 2);
  assert.equal(r.err.trim().split('\n').length, 1, r.err);
  const s = binder(['serve', '--no-tui', '--store', file]);
  assert.equal(s.code, 2);
  assert.match(s.err, /not-a-folder/);
});

test('help lists every operation with examples', (t) => {
  const { admin } = adminIn(t);
  const help = admin('--help');
  assert.equal(help.code, 0);
  for (const verb of ['approve', 'delete', 'edit-note', 'create-list', 'edit-list', 'grant', 'archive-list', 'delete-list', 'side', 'sides', 'templates', 'add', 'move']) {
    assert.match(help.out, new RegExp(`\\n  ${verb}\\b`), verb);
  }
  assert.match(admin('side', 'add', '--help').out, /binder admin side add ~\/work\/site\/\.binder Claude/);
});

test('binder admin migrate and a keeper\'s start on PostgreSQL say when the database\'s locale will not let search fold other scripts\' capitals', { skip: postgresMissing() ?? false }, async (t) => {
  const c = await cluster();
  const plain = c.database();
  const name = `utf8_admin_${process.pid}`;
  c.psql('postgres', `CREATE DATABASE ${name} LOCALE 'C.UTF-8' TEMPLATE template0`);
  const utf8 = `postgres://binder@localhost/${name}?host=${encodeURIComponent(c.host)}`;
  t.after(() => { dropDatabase(c, plain); dropDatabase(c, utf8); });
  const inC = binder(['admin', '--store', plain, 'migrate']);
  assert.equal(inC.code, 0, inC.err);
  assert.match(inC.out, /Brought the database .* to \d+\. Its locale lowercases ASCII letters alone: .*createdb --locale C\.UTF-8 --template template0/);
  const json = JSON.parse(binder(['admin', '--store', plain, 'migrate', '--json']).out) as { foldsCase: boolean };
  assert.equal(json.foldsCase, false);
  const inUtf8 = binder(['admin', '--store', utf8, 'migrate']);
  assert.equal(inUtf8.code, 0, inUtf8.err);
  assert.match(inUtf8.out, /Brought the database .* to \d+\.\n$/);
  // A keeper started on it says so too (teams start keepers more often than they migrate).
  const kept = await serveKeeper(t, ['--store', plain, '--http', '127.0.0.1:0']);
  assert.match(kept.err(), /binder serve: Its locale lowercases ASCII letters alone/);
  await kept.stop();
  const keptUtf8 = await serveKeeper(t, ['--store', utf8, '--http', '127.0.0.1:0']);
  assert.doesNotMatch(keptUtf8.err(), /lowercases/);
  await keptUtf8.stop();
});
