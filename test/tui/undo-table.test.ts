/**
 * The table of what takes a person's change back (src/person/undo.ts), read without a screen: a
 * move goes back from where it stands now, a move past the gate is also withdrawn (and asks), an
 * edit puts back only what it changed, an agent's access is set back and must still stand, and the
 * page's one-act offer is what it was.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { approvalMark } from '../../src/store/approval-mark.js';
import { shapeMark, undoOf, undoing, type RecordShape } from '../../src/person/undo.js';

const ann = { by: { id: 'person:ann', kind: 'person' as const, name: 'ann' }, at: '2030-01-01T00:00:00Z' };
const shape = (patch: Partial<RecordShape> = {}): RecordShape => ({
  id: 7, title: 'Dark mode', state: 'proposed', approved: null, fields: { priority: 'High' }, owners: [], due: null, archived: false, ...patch,
});
const ok = (data: unknown) => ({ ok: true, data });

test('a move past the gate is taken back by a move from where it stands, then its approval withdrawn, asked first', () => {
  const before = shape();
  const after = shape({ state: 'approved', approved: ann });
  const back = undoing({ op: 'move', args: { id: 7, state: 'approved' } }, ok(after), { record: before });
  assert.deepEqual(back?.acts, [
    { op: 'move', args: { id: 7, state: 'proposed', seen: approvalMark('Dark mode', { priority: 'High' }, 'approved') } },
    { op: 'approve', args: { id: 7, withdraw: true } },
  ]);
  assert.equal(back?.asks, true);
  assert.equal(back?.mark, shapeMark(after), 'refused when the record is not as the change left it');
  assert.notEqual(shapeMark(after), shapeMark({ ...after, state: 'doing' }), 'another hand\'s move changes the mark');
  assert.equal(undoOf({ op: 'move', args: { id: 7, state: 'approved' } }, ok(after), { record: before }), null, 'the page offers no two-act undo');
});

test('an edit is taken back by the values it changed, and nothing else; a change that changed nothing keeps nothing', () => {
  const before = shape({ fields: { priority: 'High', branch: 'dark' } });
  const after = shape({ title: 'Dark mode, done', fields: { priority: 'Low', branch: 'dark', size: 'S' } });
  const back = undoing({ op: 'edit', args: { id: 7 } }, ok(after), { record: before });
  assert.deepEqual(back?.acts, [{ op: 'edit', args: { id: 7, title: 'Dark mode', fields: { priority: 'High', size: '' } } }]);
  assert.equal(back?.asks, false);
  assert.equal(undoing({ op: 'edit', args: { id: 7 } }, ok(before), { record: before }), null);
  assert.equal(undoing({ op: 'edit', args: { id: 7 } }, { ok: false, data: null }, { record: before }), null);
});

test('a withdrawal is taken back by an approval of what it says now, then the move back past the gate', () => {
  const before = shape({ state: 'doing', approved: ann });
  const after = shape({ state: 'proposed' });
  const back = undoing({ op: 'approve', args: { id: 7, withdraw: true } }, ok(after), { record: before });
  assert.deepEqual(back?.acts.map((a) => [a.op, a.args.withdraw ?? a.args.state]), [['approve', false], ['move', 'doing']]);
  assert.equal(back?.asks, false);
});

test('an agent\'s access is set back, and must still be what the change set; the page\'s offers are as they were', () => {
  const back = undoing({ op: 'grant', args: { list: 'batches', agent: 'agent:claude', access: 'read' } }, ok({ access: 'read' }), { access: 'write' });
  assert.deepEqual(back?.acts, [{ op: 'grant', args: { list: 'batches', agent: 'agent:claude', access: 'write' } }]);
  assert.deepEqual(back?.access, { list: 'batches', agent: 'agent:claude', access: 'read' });
  assert.deepEqual(undoOf({ op: 'archive', args: { id: 7 } }, ok(shape({ archived: true }))), { op: 'restore', args: { id: 7 } });
  assert.deepEqual(undoOf({ op: 'archive-list', args: { list: 'batches' } }, ok(null)), { op: 'archive-list', args: { list: 'batches', restore: true } });
  assert.equal(undoOf({ op: 'archive', args: { id: 7, restore: true } }, ok(shape())), null);
});
