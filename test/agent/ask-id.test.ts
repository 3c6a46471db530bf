/** An ask's id: a v4 UUID from the system's random source, never the same twice. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newAskId } from '../../src/agent/ask-id.js';

test('ask ids are v4 UUIDs and do not repeat', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 5000; i++) {
    const id = newAskId();
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    seen.add(id);
  }
  assert.equal(seen.size, 5000);
});
