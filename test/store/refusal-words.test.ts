/**
 * The store's refusal words (src/store/words): each refusal says the same next steps in English
 * and in French — the same operations with the same arguments, only a placeholder's word
 * translated — and none writes an agent's step as prose, which no face could write as a call.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { en, fr } from '../../src/store/words/index.js';
import { stepsOf, step, written, commandLine, type Sentence } from '../../src/store/sentence.js';
import { AGENT_OPERATIONS } from '../../src/keeper/operations.js';

type Said = (...args: unknown[]) => string | Sentence;
const VERBS = AGENT_OPERATIONS.map((op) => op.name).join('|');
/** The refusals given several names at once, and where. */
const SEVERAL = { oneGate: 0, importNeedsCircle: 0, hookEventsUnknown: 1 };

test('every refusal names the same steps in English and French, and no agent step as prose', () => {
  const names = Object.keys(en) as (keyof typeof en)[];
  assert.ok(names.length > 20);
  for (const name of names) {
    const arity = en[name].length;
    // Sample values: a record's number, then words; a step where one is given (a need to take away),
    // names where several are (the states that would be gates).
    const args = Array.from({ length: arity }, (_, at) => (name === 'needsCircle' && at === 3 ? step('needs', { id: 3, others: '4', remove: true })
      : at === (SEVERAL as Record<string, number>)[name] ? ['w1', 'w2'] : at === 0 ? 7 : `w${at}`));
    const [inEnglish, inFrench] = [(en[name] as Said)(...args), (fr[name] as Said)(...args)];
    const shape = (said: string | Sentence) => (typeof said === 'string' ? [] : stepsOf(said).map((s) => [s.op, Object.keys(s.args)]));
    assert.deepEqual(shape(inFrench), shape(inEnglish), name);
    for (const said of [inEnglish, inFrench]) {
      const text = typeof said === 'string' ? said : said.filter((part) => typeof part === 'string').join('');
      assert.doesNotMatch(text, new RegExp(`(^|[\\s(\`])binder (${VERBS})\\b`), `${name}: a step written as prose`);
      assert.ok(written(said, commandLine).length > 0);
    }
  }
});
