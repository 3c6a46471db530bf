/**
 * Random argument objects into every operation of the catalog, through the one dispatch, as a
 * person and as an agent, on one store: never an exception, never a bug in the keeper's log,
 * never a change when refused (the whole store compared), every refusal a sentence, never a
 * person's operation done for an agent, never a word of the hidden list in an agent's answer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import fc from 'fast-check';
import { openStore } from '../../src/store/index.js';
import { createPerform } from '../../src/keeper/perform.js';
import { OPERATIONS } from '../../src/keeper/operations.js';
import { tempDir } from '../helpers/temp.js';
import { ann, argsFor, bot, dumpStore, fuzzSeed, layBinder, leaksHidden, notASentence } from './fuzz-kit.js';

/** Runs per operation: about 30 operations, so some 3,600 asks in all. */
const RUNS = 120;

async function setup(t: import('node:test').TestContext) {
  const store = openStore(join(tempDir(t, 'binder-fuzz-'), 'store'), { now: () => Date.UTC(2026, 5, 1, 9, 0) });
  t.after(() => store.close());
  // Durability is the crash tests' concern; here, a sync per commit would only slow the fuzz down.
  store.db.pragma('synchronous = OFF');
  const laid = await layBinder(store);
  const bugs: string[] = [];
  const perform = createPerform({ store, log: (line) => bugs.push(line) });
  return { store, laid, bugs, perform };
}

test('fuzz: random arguments into every catalog operation — no throw, no bug, no change when refused, refusals are sentences', async (t) => {
  const { store, bugs, perform } = await setup(t);
  const seed = fuzzSeed();
  const figures = { runs: 0, refused: 0, done: 0, agentPersonOnly: 0 };
  // Everything the agent ever sent: a word it wrote into a visible record (an owner's name, say)
  // may come back in a later answer, and that is no leak.
  let agentSent = '';
  for (const spec of OPERATIONS) {
    // A wait answers at once here (nothing changed since the last brief, or a refusal): no keeper holds it.
    await fc.assert(fc.asyncProperty(argsFor(spec), fc.boolean(), fc.boolean(), fc.constantFrom<'en' | 'fr'>('en', 'en', 'fr'), async (args, asPerson, json, lang) => {
      // A person may do anything to the hidden list, grant it too: then it is hidden no more.
      fc.pre(!asPerson || leaksHidden(JSON.stringify(args)).length === 0);
      figures.runs++;
      const who = asPerson ? ann : bot;
      const before = dumpStore(store.db);
      const answer = await perform(spec.name, args, who, json ? 'json' : undefined, lang);
      assert.deepEqual(bugs, [], `${spec.name}: a bug in the keeper's log`);
      assert.equal(typeof answer.text, 'string');
      if (!asPerson && !spec.agents) {
        figures.agentPersonOnly++;
        assert.equal(answer.ok, false, `${spec.name} was done for an agent`);
      }
      if (!answer.ok) {
        figures.refused++;
        assert.deepEqual(notASentence(answer.text, args), [], `${spec.name} refused (${lang}) with: ${answer.text}`);
        assert.equal(answer.data, undefined, 'a refusal has no data');
        assert.equal(dumpStore(store.db), before, `${spec.name} changed the store and was refused: ${answer.text}`);
      } else figures.done++;
      if (!asPerson) {
        const asked = agentSent + JSON.stringify(args).toLowerCase();
        if (answer.ok) agentSent = asked;
        const said = `${answer.text}\n${JSON.stringify(answer.data ?? null)}`;
        // Only what the agent itself sent may come back.
        assert.deepEqual(leaksHidden(said).filter((w) => !asked.includes(w)), [], `${spec.name} told an agent of the hidden list: ${said.slice(0, 300)}`);
      }
    }), { numRuns: RUNS, seed: seed + spec.name.length, endOnFailure: true, includeErrorInReport: true });
  }
  assert.ok(figures.refused > 0 && figures.done > 0, 'both refusals and changes were tried');
  t.diagnostic(`seed ${seed}: ${figures.runs} asks, ${figures.done} done, ${figures.refused} refused (${figures.agentPersonOnly} of a person's operations by an agent: 0 done)`);
});

/*
 * Regression cases the fuzz found. Each was a refusal an agent could not read as a sentence:
 * the keeper's own words for arguments it did not understand began with an operation's or an
 * argument's name in lowercase, or with a flag ("--for takes…").
 */
test('fuzz regressions: what the dispatch says of missing or malformed arguments is a sentence', async (t) => {
  const { perform, laid } = await setup(t);
  const cases: [string, Record<string, unknown>][] = [
    ['add', { note: 'x' }], // found: "add needs list (a list's name or id)."
    ['add', { list: 'batches', title: { a: 1 } }], // found: "title is not understood: the title."
    ['attach', { id: 1, kind: 'false', ref: 'x' }], // found: "kind must be one of: message, …"
    ['show', { list: 'batches', offset: 1.5 }], // found: "offset is not understood: …"
    ['take', { for: -1e-187 }], // found: "--for takes a length like 30m, 2h, 1d or 45s."
    ['wait', { timeout: '#L04' }], // found: "--timeout takes a length like 60s, 5m or 90 (seconds)."
    ['take', {}], // found: "take needs a record (binder take 12) or a list (…)."
  ];
  for (const [op, args] of cases) {
    const a = await perform(op, args, bot);
    assert.equal(a.ok, false, op);
    assert.deepEqual(notASentence(a.text), [], `${op}: ${a.text}`);
  }
  // A person's: edit-list's flags, and the names a person gave (a field "value", a list "tasks").
  const personCases: [string, Record<string, unknown>][] = [
    ['create-list', {}], // found through binder admin create-list without --template: "create-list needs template (…)."
    ['edit-list', { list: 'batches', renameState: ['60s'] }], // found: "--rename-state takes NAME=VALUE, not "60s"."
    ['edit-list', { list: 'batches', moveState: ['Doing=9'] }],
    ['edit-list', { list: 'batches', addField: [':number'] }],
    ['edit-list', { list: 'batches', removeField: ['nope'] }],
    ['edit-list', { list: 'batches', gate: ['nope'] }],
  ];
  for (const [op, args] of personCases) {
    const a = await perform(op, args, ann);
    assert.equal(a.ok, false, op);
    assert.deepEqual(notASentence(a.text), [], `${op}: ${a.text}`);
  }
  // Names a person gave in lowercase begin the refusals about them.
  assert.equal((await perform('edit-list', { list: 'customers', addField: ['estimate:number', 'start:date', 'size:choice:S|M', 'site:url'] }, ann)).ok, true);
  for (const [field, value] of [['estimate', 'lots'], ['start', '2026-02-30'], ['size', 'XL'], ['site', 'ftp://x']]) {
    const a = await perform('edit', { id: laid.customer, fields: { [field!]: value } }, bot);
    assert.equal(a.ok, false, field);
    assert.deepEqual(notASentence(a.text), [], `${field}: ${a.text}`);
  }
  assert.equal((await perform('edit-list', { list: 'customers', title: 'customers, lowercase' }, ann)).ok, true);
  const noState = await perform('edit-list', { list: 'customers', gate: ['nope'] }, ann);
  assert.deepEqual(notASentence(noState.text), [], noState.text);
});
