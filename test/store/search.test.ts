/**
 * Search: words of titles, notes and field values, ranked, in the lists the asker can read,
 * with no FTS syntax from the asker ever reaching the query.
 */
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Store } from '../../src/store/index.js';
import { test } from 'node:test';
import { openPostgresStore } from '../../src/store/postgres-store.js';
import { cluster, dropDatabase, postgresMissing } from '../helpers/postgres.js';
import { ann, bot, fresh, refusal, withBatches, eachStore } from './helpers.js';

eachStore('search finds words in titles, notes and field values, by prefix, all words required', async () => {
  const f = await fresh();
  try {
    await f.store.createList({ template: 'tasks' }, ann);
    const a = await f.store.add('tasks', { title: 'Dark mode for the login page' }, ann);
    const b = await f.store.add('tasks', { title: 'Speed', note: 'the login is slow on mobile' }, ann);
    const c = await f.store.add('tasks', { title: 'Branching', fields: { branch: 'feature/café-login' } }, ann);
    assert.deepEqual((await f.store.search('dark', ann)).map((h) => h.id), [a.id]);
    assert.deepEqual((await f.store.search('mob', ann)).map((h) => h.id), [b.id], 'a prefix');
    assert.deepEqual((await f.store.search('CAFE', ann)).map((h) => h.id), [c.id], 'any case, accents folded');
    assert.deepEqual((await f.store.search('login slow', ann)).map((h) => h.id), [b.id], 'every word');
    assert.equal((await f.store.search('login', ann)).length, 3);
    await f.store.edit(a.id, { title: 'Light mode' }, ann);
    assert.deepEqual(await f.store.search('dark', ann), [], 'the index follows an edit');
    await f.store.note(a.id, 'zebra stripes', ann);
    assert.deepEqual((await f.store.search('zebra', ann)).map((h) => h.id), [a.id], 'and a note');
  } finally {
    await f.done();
  }
});

eachStore('search finds a record by its number, 12 or #12, first, then records whose words hold it; never one the asker may not see', async () => {
  const f = await withBatches();
  try {
    await f.store.createList({ template: 'tasks' }, ann);
    const hidden = await f.store.add('tasks', { title: 'Not granted to the agent' }, ann);
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await f.store.add('batches', { title: `Batch ${i}` }, ann)).id);
    const target = ids[1]!;
    const naming = await f.store.add('batches', { title: `Follows up on ${target}` }, ann);
    for (const given of [String(target), `#${target}`, ` #${target} `]) {
      assert.deepEqual((await f.store.search(given, ann)).map((h) => h.id), [target, naming.id], `"${given}": the record first, then its number in a title`);
    }
    const hit = (await f.store.search(`#${target}`, ann))[0]!;
    assert.equal(hit.title, 'Batch 1');
    assert.equal(hit.stateName, 'Proposed');
    assert.ok(!(await f.store.search(`#${hidden.id}`, bot)).some((h) => h.id === hidden.id), 'a list the agent was not granted');
    assert.equal((await f.store.search(`#${hidden.id}`, ann))[0]?.id, hidden.id);
    assert.deepEqual(await f.store.search('#999999', ann), [], 'no such record');
    await f.store.archive(target, true, ann);
    assert.deepEqual((await f.store.search(`#${target}`, ann)).map((h) => h.id), [naming.id], 'archived: only with the archived');
    assert.deepEqual((await f.store.search(`#${target}`, ann, { archived: true })).map((h) => h.id)[0], target);
  } finally {
    await f.done();
  }
});

eachStore('a title match ranks above a note match; limit caps the hits', async () => {
  const f = await fresh();
  try {
    await f.store.createList({ template: 'blank' }, ann);
    const inNote = await f.store.add('blank', { title: 'Something else entirely', note: 'mentions the kiwi once among many other words here' }, ann);
    const inTitle = await f.store.add('blank', { title: 'Kiwi' }, ann);
    const hits = await f.store.search('kiwi', ann);
    assert.deepEqual(hits.map((h) => h.id), [inTitle.id, inNote.id]);
    assert.equal(hits[1]!.snippet, 'mentions the kiwi once among many other words here');
    assert.equal(hits[0]!.snippet, 'Kiwi');
    assert.equal(hits[0]!.listTitle, 'Blank');
    assert.equal(hits[0]!.stateName, 'To do');
    for (let i = 0; i < 60; i++) await f.store.add('blank', { title: `kiwi ${i}` }, ann);
    assert.equal((await f.store.search('kiwi', ann)).length, 50);
    assert.equal((await f.store.search('kiwi', ann, { limit: 5 })).length, 5);
  } finally {
    await f.done();
  }
});

eachStore('FTS syntax in the asker\'s text never reaches the index: words, or the query language, or a refusal', async () => {
  const f = await withBatches();
  try {
    const r = await f.store.add('batches', { title: 'alpha AND beta', note: 'NEAR(gamma delta)' }, bot);
    for (const text of ['"', 'AND (', 'OR', '*', 'title:alpha', 'NEAR(', '""""', '-alpha', '^alpha', '(', ')', 'a"b', "'", '\\', '{title}: x', 'NOT alpha']) {
      // Read as words, or refused with a sentence; never an engine's error.
      await f.store.search(text, bot).catch((e: unknown) => {
        assert.ok(e instanceof Error && e.name === 'Refused', `${text}: ${String(e)}`);
      });
    }
    assert.deepEqual((await f.store.search('AND', bot)).map((h) => h.id), [r.id], 'AND is a word');
    assert.match(await refusal(() => f.store.search('beta:alpha', bot)), /no key "beta"/, 'no column filter of the index');
    assert.match(await refusal(() => f.store.search('title:alpha', bot)), /no key "title"/);
    assert.deepEqual((await f.store.search('NEAR(gamma', bot)).map((h) => h.id), [r.id]);
    assert.deepEqual((await f.store.search('alpha OR zzz', bot)).map((h) => h.id), [r.id], 'OR between terms');
    assert.deepEqual((await f.store.search('alpha zzz', bot)).map((h) => h.id), [], 'zzz is required');
    assert.deepEqual(await f.store.search('   ', bot), []);
  } finally {
    await f.done();
  }
});

eachStore('the best hits an asker may see come first, however many better ones it may not see', async () => {
  const f = await withBatches();
  try {
    await f.store.createList({ template: 'blank' }, ann);
    // Short titles rank best: these, in a list the agent cannot read, outrank all the others.
    for (let i = 0; i < 30; i++) await f.store.add('blank', { title: 'plum' }, ann);
    const archived = await f.store.add('batches', { title: 'plum' }, ann);
    await f.store.archive(archived.id, true, ann);
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push((await f.store.add('batches', { title: `plum in a longer title number ${i}` }, bot)).id);
    assert.deepEqual((await f.store.search('plum', bot, { limit: 3 })).map((h) => h.id), seen.slice(0, 3));
    assert.deepEqual((await f.store.search('plum', bot)).map((h) => h.id), seen);
    assert.equal((await f.store.search('plum', ann, { limit: 3 }))[0]!.listTitle, 'Blank');
    assert.equal((await f.store.search('plum', ann, { archived: true, limit: 50 })).length, 35);
  } finally {
    await f.done();
  }
});

eachStore('the best hits an asker may see come first when the word is in notes past the records\' rows, however many better ones it may not see', async () => {
  const f = await withBatches();
  try {
    await f.store.createList({ template: 'blank' }, ann);
    // SQLite keeps a record's first 64 notes in its row: the word is in the 65th, in a row of its own.
    const chatty = async (list: string, who: typeof ann): Promise<number> => {
      const r = await f.store.add(list, { title: 'a record' }, who);
      await f.store.transaction(async (tx) => {
        for (let i = 0; i < 64; i++) await tx.note(r.id, `entry ${i}`, who);
        await tx.note(r.id, 'damson', who);
      });
      return r.id;
    };
    // Made first, so they come first among hits scored alike: in a list the agent cannot read.
    for (let i = 0; i < 14; i++) await chatty('blank', ann);
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push(await chatty('batches', bot));
    assert.deepEqual((await f.store.search('damson', bot, { limit: 3 })).map((h) => h.id).sort((a, b) => a - b), seen.slice(0, 3));
    assert.deepEqual((await f.store.search('damson entry', bot)).map((h) => h.id).sort((a, b) => a - b), seen);
    assert.equal((await f.store.search('damson', ann, { limit: 50 })).length, 18);
  } finally {
    await f.done();
  }
}, { timeout: 60_000 });

/**
 * The index is brought in step once, as a transaction commits (a batch of asks is one): what it
 * says must still be what the records say — a search in the same transaction finds what was
 * changed before it, whatever a savepoint around it undid; what a failed ask changed is not
 * found; a record made and erased in one transaction leaves nothing to find.
 */
eachStore('the index in one transaction of several asks: found as changed, not as undone, nothing of the erased', async () => {
  const f = await withBatches();
  class Boom extends Error {}
  const found = async (s: Store, words: string): Promise<string[]> => (await s.search(words, ann)).map((h) => h.title).sort();
  try {
    const kept = await f.store.add('batches', { title: 'quokka' }, bot);
    await f.store.transaction(async (tx) => {
      const made = await tx.add('batches', { title: 'wombat' }, bot);
      await tx.note(kept.id, 'numbat here', bot);
      // A search in a savepoint that is then undone: what it indexed is undone too, and indexed again at the commit.
      await assert.rejects(tx.transaction(async (inner) => {
        assert.deepEqual(await found(inner, 'numbat'), ['quokka'], 'an ask after a change finds it');
        throw new Boom();
      }), Boom);
      assert.deepEqual(await found(tx, 'wombat'), ['wombat'], 'and the next one too');
      // A failed ask's change is undone, its words with it.
      await assert.rejects(tx.transaction(async (inner) => {
        await inner.edit(made.id, { title: 'platypus' }, bot);
        await inner.note(kept.id, 'dingo', bot);
        throw new Boom();
      }), Boom);
      // Changed, then erased in a savepoint that is undone: found as changed.
      const back = await tx.add('batches', { title: 'wallaby' }, bot);
      await tx.edit(back.id, { title: 'wallaroo' }, ann);
      await assert.rejects(tx.transaction(async (inner) => {
        await inner.delete(back.id, ann);
        throw new Boom();
      }), Boom);
      const gone = await tx.add('batches', { title: 'bilby' }, bot);
      await tx.note(gone.id, 'echidna', bot);
      await tx.delete(gone.id, ann);
    });
    assert.deepEqual(await found(f.store, 'wombat'), ['wombat']);
    assert.deepEqual(await found(f.store, 'numbat'), ['quokka']);
    assert.deepEqual(await found(f.store, 'platypus'), []);
    assert.deepEqual(await found(f.store, 'dingo'), []);
    assert.deepEqual(await found(f.store, 'wallaroo'), ['wallaroo'], 'an erasing undone leaves the record indexed');
    assert.deepEqual(await found(f.store, 'bilby'), []);
    assert.deepEqual(await found(f.store, 'echidna'), []);
    await f.store.note(kept.id, 'later', bot);
    assert.deepEqual(await found(f.store, 'numbat later'), ['quokka'], 'a later change indexes the whole record again');
  } finally {
    await f.done();
  }
});

eachStore('a note adds its words to its record\'s, an edit changes its title\'s and fields\' alone, in its list\'s language; a change undone leaves no word', async () => {
  const f = await fresh();
  class Boom extends Error {}
  const found = async (words: string): Promise<number[]> => (await f.store.search(words, ann)).map((h) => h.id);
  try {
    await f.store.createList({ template: 'tasks' }, ann);
    await f.store.createList({ template: 'tasks', title: 'Tâches', lang: 'fr' }, ann);
    const r = await f.store.add('tasks', { title: 'Wiring', fields: { branch: 'conduit' } }, ann);
    const fr = await f.store.add('taches', { title: 'Câblage' }, ann);
    await f.store.note(r.id, 'the relays were running hot', ann);
    await f.store.note(r.id, 'fixed with a bigger heatsink', ann);
    await f.store.note(fr.id, 'les chevaux mangeaient', ann);
    assert.deepEqual(await found('relays heatsink wiring conduit'), [r.id], 'every note\'s words with the title\'s and the fields\'');
    assert.deepEqual(await found('run'), [r.id], 'stemmed in English');
    // SQLite's index stems in English alone.
    if (f.store.dialect === 'postgres') assert.deepEqual(await found('cheval'), [fr.id], 'stemmed in French');
    assert.deepEqual(await found('chevaux'), [fr.id]);
    const inTitle = await f.store.add('tasks', { title: 'Heatsink order' }, ann);
    assert.deepEqual(await found('heatsink'), [inTitle.id, r.id], 'a title still ranks above a note');
    // A note undone in its savepoint leaves no word, though the same transaction's other note does.
    await f.store.transaction(async (tx) => {
      await tx.note(r.id, 'aardvark', ann);
      await assert.rejects(tx.transaction(async (inner) => {
        await inner.note(r.id, 'pangolin', ann);
        throw new Boom();
      }), Boom);
    });
    assert.deepEqual(await found('pangolin'), []);
    assert.deepEqual(await found('aardvark relays'), [r.id]);
    // A note rewritten takes its old words away.
    const [first] = (await f.store.get(r.id, ann)).record.notes;
    await f.store.editNote(r.id, first!.id, 'the relays were fine', ann);
    assert.deepEqual(await found('running'), []);
    assert.deepEqual(await found('fine'), [r.id]);
    // A new title and fields take the old ones' words away and keep the notes'.
    await f.store.note(r.id, 'capybara', ann);
    await f.store.edit(r.id, { title: 'Rewiring', fields: { branch: 'fibre' } }, ann);
    assert.deepEqual(await found('wiring'), []);
    assert.deepEqual(await found('conduit'), []);
    assert.deepEqual(await found('rewiring fibre relays heatsink aardvark capybara'), [r.id]);
    assert.deepEqual(await found('rewiring'), [r.id]);
    const again = await f.store.add('tasks', { title: 'Capybara' }, ann);
    assert.deepEqual(await found('capybara'), [again.id, r.id], 'the title still ranks above the notes');
    // Edited in a savepoint that is undone, with a note after it: the title stands as it was.
    await f.store.transaction(async (tx) => {
      await assert.rejects(tx.transaction(async (inner) => {
        await inner.edit(r.id, { title: 'Quagga' }, ann);
        throw new Boom();
      }), Boom);
      await tx.note(r.id, 'okapi', ann);
    });
    assert.deepEqual(await found('quagga'), []);
    assert.deepEqual(await found('rewiring okapi'), [r.id]);
  } finally {
    await f.done();
  }
});

eachStore('a hit\'s snippet is the first note with the word, whatever its case, accents or final sigma, however many notes come before it', async () => {
  const f = await fresh();
  try {
    await f.store.createList({ template: 'tasks' }, ann);
    const r = await f.store.add('tasks', { title: 'Road works', fields: { branch: 'zebra' } }, ann);
    await f.store.transaction(async (tx) => {
      for (let i = 0; i < 300; i++) await tx.note(r.id, `routine check ${i}`, ann);
    });
    await f.store.note(r.id, 'Le CAFÉ était froid', ann);
    await f.store.note(r.id, 'η ΟΔΟΣ είναι κλειστή', ann);
    await f.store.note(r.id, 'the café again', ann);
    const snippet = async (words: string): Promise<string[]> => (await f.store.search(words, ann)).map((h) => h.snippet);
    assert.deepEqual(await snippet('cafe'), ['Le CAFÉ était froid']);
    // The tests' PostgreSQL cluster has LC_CTYPE C, where PostgreSQL lowercases ASCII letters alone.
    if (f.store.dialect === 'sqlite') {
      assert.deepEqual(await snippet('οδος'), ['η ΟΔΟΣ είναι κλειστή'], 'a final sigma typed finds a capital one');
      assert.deepEqual(await snippet('ΟΔΟΣ'), ['η ΟΔΟΣ είναι κλειστή']);
    }
    assert.deepEqual(await snippet('zebra'), ['Road works'], 'a word of the fields alone: the title');
    assert.deepEqual(await snippet('299 routine'), ['routine check 299'], 'the first word\'s first note');
    // A word deep in a long title: the piece around it, cut where it was found, ASCII or not.
    const long = `${'plain words before '.repeat(4)}Walrus${' and plain words after'.repeat(6)}`;
    await f.store.add('tasks', { title: long }, ann);
    await f.store.add('tasks', { title: long.replace('Walrus', 'Éléphant').replace(/plain/g, 'plaîn') }, ann);
    const around = (title: string, word: string): string => {
      const at = title.indexOf(word);
      return `…${title.slice(at - 40, at + word.length + 80)}…`;
    };
    assert.deepEqual(await snippet('walrus'), [around(long, 'Walrus')]);
    const accented = long.replace('Walrus', 'Éléphant').replace(/plain/g, 'plaîn');
    assert.deepEqual(await snippet('elephant'), [around(accented, 'Éléphant')]);
  } finally {
    await f.done();
  }
});

test('PostgreSQL in a UTF-8 database: capitals of every script found by small letters, a final sigma as any sigma', { skip: postgresMissing() ?? false }, async (t) => {
  const c = await cluster();
  const name = `utf8_${process.pid}`;
  c.psql('postgres', `CREATE DATABASE ${name} LOCALE 'C.UTF-8' TEMPLATE template0`);
  const utf8 = `postgres://binder@localhost/${name}?host=${encodeURIComponent(c.host)}`;
  t.after(() => dropDatabase(c, utf8));
  const store = await openPostgresStore(utf8);
  try {
    await store.createList({ template: 'tasks' }, ann);
    const road = await store.add('tasks', { title: 'η ΟΔΟΣ είναι κλειστή' }, ann);
    const written = await store.add('tasks', { title: 'μια άλλη οδος', note: 'Ξένια' }, ann);
    const found = async (words: string): Promise<number[]> => (await store.search(words, ann)).map((h) => h.id).sort();
    assert.deepEqual(await found('ΟΔΟΣ'), [road.id, written.id].sort());
    assert.deepEqual(await found('οδος'), [road.id, written.id].sort());
    assert.deepEqual(await found('οδοσ'), [road.id], 'σ typed: the word indexed with σ');
    assert.deepEqual(await found('ξενια'), [written.id]);
  } finally {
    await store.close();
  }
});

/** Notes of `chars` characters (8,000) of six-letter words made up from `seed` on, no two alike. */
function madeUp(seed: number, chars = 8000): () => string {
  return () => {
    const words: string[] = [];
    while (words.length === 0 || words.join(' ').length < chars - 10) words.push((seed++ * 2654435761 % 4294967296).toString(36).slice(0, 6));
    return words.join(' ').slice(0, chars);
  };
}

eachStore('an agent\'s notes full of words no one uses cannot freeze a record: notes, edits and a note rewritten go on, and it is still found', async () => {
  const f = await withBatches();
  try {
    const r = await f.store.add('batches', { title: 'Target record' }, bot);
    // 8,000 characters of words made up for the purpose, each note's its own: PostgreSQL keeps a
    // record's words in a tsvector of at most 1 MB, which 60 such notes would pass.
    const made = madeUp(1);
    const first = made();
    await f.store.note(r.id, first, bot);
    // Asked together, as the folder's pump or a keeper's batch does them: one transaction.
    await f.store.transaction(async (tx) => {
      for (let i = 0; i < 100; i++) await tx.note(r.id, made(), bot);
    });
    for (let i = 0; i < 3; i++) await f.store.note(r.id, made(), bot);
    const mine = await f.store.note(r.id, 'ann was here', ann);
    await f.store.editNote(r.id, mine.id, 'ann was here again', ann);
    await f.store.edit(r.id, { title: 'Target record, renamed' }, ann);
    await f.store.note(r.id, made(), bot);
    const found = async (words: string): Promise<number[]> => (await f.store.search(words, ann)).map((h) => h.id);
    assert.deepEqual(await found('renamed'), [r.id]);
    assert.deepEqual(await found('target'), [r.id]);
    assert.deepEqual(await found(first.split(' ')[3]!), [r.id], 'a word of its first note');
    assert.equal((await f.store.get(r.id, ann)).counts.notes, 106);
  } finally {
    await f.done();
  }
});

eachStore('a record whose notes filled its words to the bound keeps its notes\' words when its title and fields grow', async () => {
  const f = await fresh();
  try {
    await f.store.createList({ template: 'tasks' }, ann);
    await f.store.grant('tasks', 'agent:bot', 'write', ann);
    const r = await f.store.add('tasks', { title: 'Full' }, bot);
    // Notes of made-up words, in transactions of fewer and shorter notes, each transaction's words
    // taken while they fit: the record's words (PostgreSQL: its tsvector) end within 2 % of the
    // bound, closer to it than the room a title and a field of the longest need.
    let seed = 1;
    const first = madeUp(seed)();
    await f.store.note(r.id, first, bot);
    for (const [each, chars, times] of [[17, 8000, 1], [8, 8000, 1], [4, 8000, 2], [2, 8000, 3], [1, 8000, 7], [2, 800, 12]] as const) {
      for (let t = 0; t < times; t++) {
        const made = madeUp(seed += 10_000_000, chars);
        await f.store.transaction(async (tx) => {
          for (let i = 0; i < each; i++) await tx.note(r.id, made(), bot);
        });
      }
    }
    const found = async (words: string): Promise<number[]> => (await f.store.search(words, ann)).map((h) => h.id);
    const word = first.split(' ')[2]!;
    assert.deepEqual(await found(word), [r.id], 'a word of its first note, before');
    // A title and a field value of the longest allowed (300 and 2,000 characters).
    const title = `Renamed ${'and longer '.repeat(40)}`.slice(0, 300).trim();
    await f.store.edit(r.id, { title, fields: { Branch: `feature/${'x'.repeat(1990)}` } }, ann);
    assert.deepEqual(await found('renamed'), [r.id]);
    assert.deepEqual(await found(word), [r.id], 'a word of its first note, after the title and field grew');
  } finally {
    await f.done();
  }
}, { timeout: 120_000 });

eachStore('a record of many long notes in words of every day is found by the word of its last note, after a note is rewritten too', async () => {
  const f = await withBatches();
  try {
    const r = await f.store.add('batches', { title: 'Daily log' }, bot);
    const day = 'the batch ran again and the import took longer than the day before '.repeat(120).slice(0, 8000);
    await f.store.transaction(async (tx) => {
      for (let i = 0; i < 25; i++) await tx.note(r.id, day, bot);
    });
    await f.store.note(r.id, 'an okapi crossed the yard', bot);
    const found = async (words: string): Promise<number[]> => (await f.store.search(words, ann)).map((h) => h.id);
    assert.deepEqual(await found('okapi'), [r.id], '200,000 characters of notes before it');
    // Rewriting a note indexes the record whole: the same words are kept as when they came one note at a time.
    const mine = await f.store.note(r.id, 'ann was here', ann);
    await f.store.editNote(r.id, mine.id, 'ann was here again', ann);
    assert.deepEqual(await found('okapi'), [r.id]);
    assert.deepEqual(await found('again'), [r.id]);
  } finally {
    await f.done();
  }
});

eachStore('every word is found wherever it is in the record: its title, its fields or any of its notes, each in another', async () => {
  const f = await fresh();
  const found = async (words: string): Promise<number[]> => (await f.store.search(words, ann)).map((h) => h.id).sort((a, b) => a - b);
  try {
    await f.store.createList({ template: 'tasks' }, ann);
    const r = await f.store.add('tasks', { title: 'Gearbox', fields: { branch: 'sprocket' }, note: 'the flange is bent' }, ann);
    await f.store.note(r.id, 'ordered a new gasket', ann);
    const other = await f.store.add('tasks', { title: 'Gasket shelf', note: 'the flange drawer' }, ann);
    assert.deepEqual(await found('gearbox sprocket flange gasket'), [r.id], 'each word from another of its parts');
    assert.deepEqual(await found('flange gasket'), [r.id, other.id]);
    assert.deepEqual(await found('gearbox drawer'), [], 'a word of another record\'s note does not make a hit');
    assert.deepEqual(await found('gasket gasket'), [r.id, other.id], 'a word said twice');
    // Made and searched in one transaction, then changed: its old words leave the index.
    await f.store.transaction(async (tx) => {
      const made = await tx.add('tasks', { title: 'Hubcap', note: 'chrome finish' }, ann);
      assert.deepEqual((await tx.search('hubcap chrome', ann)).map((h) => h.id), [made.id]);
      await tx.note(made.id, 'matte after all', ann);
    });
    const [made] = await found('hubcap chrome matte');
    assert.ok(made !== undefined);
    await f.store.edit(made, { title: 'Wheel cover' }, ann);
    const [chrome] = (await f.store.get(made, ann)).record.notes;
    await f.store.editNote(made, chrome!.id, 'silver finish', ann);
    assert.deepEqual(await found('hubcap'), []);
    assert.deepEqual(await found('chrome'), []);
    assert.deepEqual(await found('wheel silver matte'), [made]);
  } finally {
    await f.done();
  }
});

test('a store whose index held all of a record\'s notes in its row is indexed anew when opened: found by each part, nothing of the old row left', async () => {
  const f = await fresh();
  try {
    await f.store.createList({ template: 'tasks' }, ann);
    const r = await f.store.add('tasks', { title: 'Pump', fields: { branch: 'impeller' }, note: 'leaking seal' }, ann);
    for (let i = 0; i < 70; i++) await f.store.note(r.id, `reading ${i}`, ann);
    const n = await f.store.note(r.id, 'the gland nut is loose', ann);
    const plain = await f.store.add('tasks', { title: 'Valve', note: 'sticky' }, ann);
    // As the store was at version 14: one row a record, all its notes' text in it, and a word
    // kept there that its notes no longer hold.
    const notes = (id: number): string => (f.store.db.prepare('SELECT group_concat(text, char(10) ORDER BY id) AS t FROM notes WHERE record = ?').get(id) as { t: string }).t;
    f.store.db.exec(`DROP TABLE note_text; INSERT INTO record_text (record_text) VALUES ('delete-all');
      DROP TABLE signin_used; DROP TABLE signin_seal; DROP TABLE parents; ALTER TABLE lists DROP COLUMN children_first; DROP TABLE hook_deliveries; DROP TABLE hooks;
      CREATE TABLE signin_pending (hash TEXT PRIMARY KEY, browser TEXT NOT NULL, sealed TEXT NOT NULL, expires INTEGER NOT NULL) WITHOUT ROWID;`);
    const row = f.store.db.prepare('INSERT INTO record_text (rowid, title, notes, fields) VALUES (?, ?, ?, ?)');
    row.run(r.id, 'Pump', `${notes(r.id)} stale`, 'impeller');
    row.run(plain.id, 'Valve', notes(plain.id), '');
    f.store.db.pragma('user_version = 14');
    await f.store.close();
    const again = await f.reopen();
    const found = async (words: string): Promise<number[]> => (await again.search(words, ann)).map((h) => h.id);
    assert.deepEqual(await found('pump impeller leaking gland'), [r.id], 'its title, fields, first note and a note past the row\'s');
    assert.deepEqual(await found('reading 3'), [r.id]);
    assert.deepEqual(await found('valve sticky'), [plain.id]);
    assert.deepEqual(await found('stale'), [], 'the row of a record whose notes pass the bounds is written again');
    await again.editNote(r.id, n.id, 'the gland nut is tight', ann);
    assert.deepEqual(await found('loose'), []);
    assert.deepEqual(await found('tight seal'), [r.id]);
    again.db.prepare("INSERT INTO note_text (note_text, rank) VALUES ('integrity-check', 1)").run();
    again.db.prepare("INSERT INTO record_text (record_text, rank) VALUES ('integrity-check', 1)").run();
  } finally {
    await f.done();
  }
});

test('SQLite: a note on a record of a million characters of made-up words writes its own words to the index, not the record\'s', { timeout: 120_000 }, async () => {
  const f = await withBatches();
  try {
    const r = await f.store.add('batches', { title: 'Flooded' }, bot);
    const made = madeUp(7);
    await f.store.transaction(async (tx) => {
      for (let i = 0; i < 125; i++) await tx.note(r.id, made(), bot);
    });
    await f.store.checkpoint();
    const wal = (): number => statSync(join(f.dir, 'store', 'binder.db-wal')).size;
    const before = wal();
    await f.store.note(r.id, 'a short note', bot);
    // Written again whole, the record's words took more than a megabyte of pages.
    const written = wal() - before;
    assert.ok(written < 256 * 1024, `one short note wrote ${written} bytes`);
    assert.deepEqual((await f.store.search('short flooded', ann)).map((h) => h.id), [r.id]);
  } finally {
    await f.done();
  }
});
