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

test('a name or e-mail the provider gives is one line of what shows: no control byte, no bidi mark or override, no invisible character; a long one cut', () => {
  const base = { sub: 'u-ann', email: 'ann@acme.example', email_verified: true };
  const hidden = ['\u0000', '\u001b[31m', '\u202e', '\u2066', '\u200b', '\u200e', '\u200f', '\u061c', '\u2060', '\ufeff', '\u2028'];
  for (const mark of hidden) {
    const made = vouched({ ...base, name: `Ann${mark}Lee`, email: `ann${mark}@acme.example` } as Parameters<typeof vouched>[0], 'login.example', options, 0);
    assert.ok(made.ok);
    assert.doesNotMatch(made.who.name, /[\u0000-\u001f\u200b\u200e\u200f\u061c\u2028\u202a-\u202e\u2060-\u2069\ufeff]/, `name with ${JSON.stringify(mark)}`);
    assert.doesNotMatch(made.who.email ?? '', /[\u0000-\u001f\u200b\u200e\u200f\u061c\u2028\u202a-\u202e\u2060-\u2069\ufeff]/, `e-mail with ${JSON.stringify(mark)}`);
  }
  // A joiner is part of some scripts' words and of emoji: kept.
  const persian = vouched({ ...base, name: 'می\u200cخواهم' } as Parameters<typeof vouched>[0], 'login.example', options, 0);
  assert.ok(persian.ok);
  assert.equal(persian.who.name, 'می\u200cخواهم');
  const long = vouched({ ...base, name: 'A'.repeat(10_000) } as Parameters<typeof vouched>[0], 'login.example', options, 0);
  assert.ok(long.ok);
  assert.equal(long.who.name.length, 120);
  const html = vouched({ ...base, name: '<img src=x onerror=alert(1)>' } as Parameters<typeof vouched>[0], 'login.example', options, 0);
  assert.ok(html.ok);
  assert.equal(html.who.name, '<img src=x onerror=alert(1)>', 'kept as text: each face shows it as text');
});
