/**
 * What PostgreSQL is sent for an agent's note and get, counted at the socket: every write the
 * engine makes to the server, in order. A note is two round trips (the reads the rules need, with
 * the note's number; then every write and the COMMIT together), a get one write of one statement
 * (the record with its notes, history, attachments and links as columns, and their counts where a
 * page holds fewer than there are; no transaction). Rules are
 * still decided in TypeScript on what was read: a note on a record the agent cannot see is refused
 * and changes nothing.
 */
import assert from 'node:assert/strict';
import { Socket } from 'node:net';
import { bot, eachStore, spy, withBatches, ann } from './helpers.js';

/** The writes made to any socket while `fn` runs, each as its text. */
async function writes(fn: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const proto = Socket.prototype as unknown as {
    _write(chunk: Buffer, encoding: string, done: () => void): void;
    _writev(chunks: { chunk: Buffer }[], done: () => void): void;
  };
  const write = proto._write;
  const writev = proto._writev;
  proto._write = function (chunk, encoding, done) {
    seen.push(Buffer.from(chunk).toString('latin1'));
    return write.call(this, chunk, encoding, done);
  };
  proto._writev = function (chunks, done) {
    seen.push(Buffer.concat(chunks.map((c) => Buffer.from(c.chunk))).toString('latin1'));
    return writev.call(this, chunks, done);
  };
  try {
    await fn();
  } finally {
    proto._write = write;
    proto._writev = writev;
  }
  // Telling the other keepers (after the commit, on a connection of its own) is no part of the change.
  return seen.filter((text) => !text.includes('pg_notify'));
}

/**
 * The statements a write runs: its Bind messages ('B', its length, the portal's empty name, the
 * statement's). A statement prepared on another of the pool's connections is written out again
 * (Parse) on one that has not seen it (the news told after a change may hold the one that has):
 * still one statement.
 */
const statements = (write: string): number => write.match(/B[\s\S]{4}\0b[0-9a-f]{24}\0/g)?.length ?? 0;

eachStore('an agent\'s note is two round trips on PostgreSQL, a get one', async (t) => {
  const f = await withBatches();
  try {
    if (f.engine !== 'postgres') {
      t.skip('PostgreSQL alone has round trips to count');
      return;
    }
    const made = await f.store.add('batches', { title: 'counted' }, ann);
    // Once, so that every statement is prepared on its connection: what is counted is the usual case.
    // A note counts nothing of its record (counting its notes grows with them, at every note).
    const prepared = await writes(() => f.store.note(made.id, 'first', bot));
    assert.ok(prepared.join('').includes('INSERT INTO notes'), 'the note\'s statements are written out the first time');
    assert.doesNotMatch(prepared.join(''), /count\(/i, 'a note reads no count of its record');
    await f.store.get(made.id, bot);

    // Statements are prepared once per connection and then named, not written out: writes are counted.
    const note = await writes(() => f.store.note(made.id, 'second', bot));
    assert.equal(note.length, 2, `two writes for a note (it was three): ${JSON.stringify(note)}`);

    // The get: one write of one statement (it was two writes of seven: BEGIN,
    // the record, its notes, history, attachments, links, then the COMMIT).
    const get = await writes(() => f.store.get(made.id, bot));
    assert.equal(get.length, 1, `one write for a get: ${JSON.stringify(get)}`);
    assert.equal(statements(get[0]!), 1, `one statement for a get: ${JSON.stringify(get)}`);
    assert.equal((await f.store.get(made.id, bot)).record.notes.map((n) => n.text).join(','), 'first,second');

    // A busy record's history past the page asked (the faces ask ten): counted in the same statement.
    const busy = await f.store.add('batches', { title: 'busy' }, ann);
    for (let n = 0; n < 11; n++) await f.store.note(busy.id, `note ${n}`, bot);
    await f.store.get(busy.id, bot, { notes: 10, history: 10 });
    const paged = await writes(() => f.store.get(busy.id, bot, { notes: 10, history: 10 }));
    assert.equal(paged.length, 1, `one write for a page of a longer history: ${JSON.stringify(paged)}`);
    assert.equal(statements(paged[0]!), 1, `one statement for a page of a longer history: ${JSON.stringify(paged)}`);
    const page = await f.store.get(busy.id, bot, { notes: 10, history: 10 });
    assert.deepEqual([page.history.length, page.counts.history, page.record.notes.length, page.counts.notes], [10, 12, 10, 11]);

    // A keeper's look for webhooks to send, after its changes and news of another's: one statement.
    await f.store.hookWork();
    const look = await writes(() => f.store.hookWork());
    assert.equal(look.length, 1, `one write for a keeper's look for webhooks: ${JSON.stringify(look)}`);
    assert.equal(statements(look[0]!), 1, `one statement for the look: ${JSON.stringify(look)}`);

    // The rules decide on what was read: an agent not given the list is told no such record, and nothing is written.
    await assert.rejects(f.store.note(made.id, 'not mine', spy), /#\d+|no record|not found|n'existe/i);
    assert.equal((await f.store.get(made.id, ann)).record.notes.length, 2);
  } finally {
    await f.done();
  }
});
