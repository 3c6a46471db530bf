/**
 * A person's own tools at a shell, careful where a slip costs: the approval mark shown by `get`
 * and taken by `approve --seen`, deletions asked for (and refused piped without `--yes`), and a
 * list's title that another list holds refused.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { binder } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp.js';

function adminIn(t: import('node:test').TestContext) {
  const store = join(tempDir(t), 'store');
  return (...args: string[]) => binder(['admin', '--store', store, '--as', 'ann', ...args]);
}

test('the approval mark from a shell: get shows it, approve --seen takes it, a stale one is refused with the current one\'s command', (t) => {
  const admin = adminIn(t);
  assert.equal(admin('create-list', 'Batches', '--template', 'batches').code, 0);
  const id = /#(\d+)/.exec(admin('add', 'Batches', 'Dark mode').out)![1]!;
  const shown = admin('get', id);
  const mark = new RegExp(`Approve what you read: binder admin approve ${id} --seen (\\S+)`).exec(shown.out)?.[1];
  assert.ok(mark, shown.out);
  assert.equal((JSON.parse(admin('--json', 'get', id).out) as { mark: string }).mark, mark);

  // The record changes between the look and the approval: refused, and told the current mark's command.
  assert.equal(admin('edit', id, '--title', 'Dark mode everywhere').code, 0);
  const stale = admin('approve', id, '--seen', mark);
  assert.equal(stale.code, 1);
  const again = new RegExp(`changed since you looked.*binder admin get ${id} shows it, and binder admin approve ${id} --seen (\\S+) approves`).exec(stale.err);
  assert.ok(again, stale.err);
  assert.notEqual(again[1], mark);
  assert.match(admin('get', id).out, /not approved/);

  const now = (JSON.parse(admin('--json', 'get', id).out) as { mark: string }).mark;
  assert.equal(again[1], now);
  const approved = admin('approve', id, '--seen', now);
  assert.equal(approved.code, 0, approved.err);
  assert.match(approved.out, /Approved #\d+/);
  assert.doesNotMatch(admin('get', id).out, /Approve what you read/, 'nothing to approve once approved');
});

test('delete and delete-list piped without --yes: refused with the command, nothing deleted; with it, the answer says what went', (t) => {
  const admin = adminIn(t);
  admin('create-list', 'Batches', '--template', 'batches');
  const id = /#(\d+)/.exec(admin('add', 'Batches', 'Dark mode', '--note', 'one').out)![1]!;
  admin('note', id, 'two');
  assert.equal(admin('attach', id, 'link', 'https://example.com/a').code, 0);
  admin('add', 'Batches', 'Light mode');

  const piped = admin('delete', id);
  assert.equal(piped.code, 1);
  assert.match(piped.err, new RegExp(`Not done: Nothing is deleted without a yes.*run it again with --yes \\(binder admin delete ${id} --yes\\)\\.`));
  assert.equal(piped.out, '');
  assert.equal(admin('get', id).code, 0, 'the record is still there');

  const list = admin('delete-list', 'batches');
  assert.equal(list.code, 1);
  assert.match(list.err, /Not done: Nothing is deleted without a yes.*\(binder admin delete-list batches --yes\)\./);
  assert.match(admin('show', 'batches').out, /Dark mode/);

  const gone = admin('delete', id, '--yes');
  assert.equal(gone.code, 0, gone.err);
  assert.match(gone.out, new RegExp(`Deleted #${id} for good, with 2 notes and 1 attachment\\.`));
  const all = admin('delete-list', 'Batches', '--yes');
  assert.equal(all.code, 0, all.err);
  assert.match(all.out, /Deleted the list batches \(Batches\) and its 1 record for good\./);

  // Nothing to delete is said as the deletion says it, not asked about.
  const none = admin('delete', '999');
  assert.equal(none.code, 1);
  assert.doesNotMatch(none.err, /--yes/);
});

test('create-list with a title another list has is refused with a sentence; edit-list too', (t) => {
  const admin = adminIn(t);
  assert.equal(admin('create-list', 'Tasks', '--template', 'tasks').code, 0);
  const twin = admin('create-list', '--template', 'tasks');
  assert.equal(twin.code, 1);
  assert.match(twin.err, /The list tasks is titled "Tasks" already: give this one another title/);
  assert.equal(admin('create-list', 'tasks', '--template', 'blank').code, 1, 'whatever its case');
  assert.equal(admin('create-list', 'Chores', '--template', 'tasks').code, 0);
  assert.equal(admin('edit-list', 'chores', '--title', 'TASKS').code, 1);
  assert.equal(admin('archive-list', 'tasks').code, 0);
  assert.equal(admin('create-list', 'Tasks', '--template', 'tasks').code, 1, 'an archived list keeps its title');
  assert.doesNotMatch(admin('lists').out, /tasks-2/);
});
