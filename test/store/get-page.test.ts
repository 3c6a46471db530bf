/**
 * `get`'s pages of notes and history, and its counts, against what the record holds: whatever the
 * page asked (sizes, an offset past the end, none at all), for a person and an agent, with and
 * without attachments. `get` counts from the record's own row and from a page that is not full,
 * so every way it can know a count is tried.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ann, bot, eachStore, withBatches } from './helpers.js';
import type { RecordPage } from '../../src/store/types.js';

eachStore('get: its pages and counts agree with the whole record, whatever the page asked', async () => {
  const f = await withBatches();
  try {
    // Records of 0 to 6 notes, 1 to 9 history rows, some with an attachment.
    const made: { id: number; notes: number; attached: number }[] = [];
    for (let i = 0; i < 6; i++) {
      const id = (await f.store.add('batches', { title: `r${i}` }, bot)).id;
      for (let n = 0; n < i; n++) await f.store.note(id, `note ${n}`, n % 2 ? bot : ann);
      for (let e = 0; e < i % 3; e++) await f.store.edit(id, { title: `r${i} v${e}` }, bot);
      const attached = i % 2;
      if (attached) await f.store.attach(id, { kind: 'link', ref: `https://example.org/${i}` }, bot);
      made.push({ id, notes: i, attached });
    }
    const whole = new Map<number, { notes: number[]; history: string[] }>();
    for (const { id } of made) {
      const all = await f.store.get(id, ann, { notes: 1000, history: 1000 });
      whole.set(id, { notes: all.record.notes.map((n) => n.id), history: all.history.map((h) => `${h.at} ${h.op}`) });
    }
    const page = fc.record({
      notes: fc.option(fc.nat(8), { nil: undefined }),
      history: fc.option(fc.nat(12), { nil: undefined }),
      offset: fc.option(fc.nat(12), { nil: undefined }),
    }, { requiredKeys: [] });
    await fc.assert(fc.asyncProperty(fc.constantFrom(...made), page, fc.boolean(), async (r, asked: RecordPage, asAgent) => {
      const view = await f.store.get(r.id, asAgent ? bot : ann, asked);
      const all = whole.get(r.id)!;
      const offset = asked.offset ?? 0;
      // The latest first, `offset` skipped, as many as asked, then in order again.
      const slice = <T>(xs: T[], n: number | undefined): T[] => {
        const latest = [...xs].reverse().slice(offset);
        return (n === undefined ? latest : latest.slice(0, n)).reverse();
      };
      assert.deepEqual(view.counts, { notes: all.notes.length, history: all.history.length });
      assert.equal(view.record.notes.length, r.notes === 0 ? 0 : slice(all.notes, asked.notes).length);
      assert.deepEqual(view.record.notes.map((n) => n.id), slice(all.notes, asked.notes));
      assert.deepEqual(view.history.map((h) => `${h.at} ${h.op}`), slice(all.history, asked.history ?? 200));
      assert.equal(view.record.attached.length, r.attached);
    }), { numRuns: 150 });
  } finally {
    await f.done();
  }
});
