/**
 * Who a provider's claims make, before any network: a subject is the provider's identifier as
 * sent (ASCII, at most 255 characters, OpenID Connect's own rule), never cleaned into another
 * person's — a subject with a control byte or a space at its end is refused, not trimmed into
 * the person whose subject it would then be.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { vouched } from '../../src/http/oidc.js';

const options = { issuer: 'https://login.example', clientId: 'binder' };
// A provider's claims as they come over the wire: a subject may be anything.
const claims = (sub: unknown) => ({ sub, name: 'Ann Lee', email: 'ann@acme.example', email_verified: true }) as unknown as Parameters<typeof vouched>[0];

test('a subject is taken as the provider sent it, or refused; never made into another', () => {
  const ann = vouched(claims('u-ann'), 'login.example', options, 0);
  assert.ok(ann.ok);
  assert.equal(ann.who.id, 'person:login.example/u-ann');
  for (const sub of ['u-ann\u0000', 'u-ann ', ' u-ann', 'u-ann\n', 'u-\u202eann', 'x'.repeat(256), '', 42, null]) {
    const made = vouched(claims(sub), 'login.example', options, 0);
    assert.equal(made.ok, false, `subject ${JSON.stringify(sub)} was taken`);
    assert.match((made as { text: string }).text, /subject/);
  }
});
