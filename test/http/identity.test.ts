/**
 * A folder agent and a token agent of the same name are one agent: one grant, one claim, one
 * place in the history. Another agent is another, whatever its token's name looks like.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { askKeeper, type AskOutcome } from '../../src/agent/ask.js';
import { ann, folderFor, served } from './kit.js';

const said = (o: AskOutcome): string => (o.outcome === 'answered' ? `${o.ok ? '' : 'refused: '}${o.text}` : `${o.outcome}: ${o.text}`);

test('a folder agent and a token agent of the same name see the same claims, grants and brief', async (t) => {
  const s = await served(t, { agents: ['Claude', 'Codex'] });
  const dir = await folderFor(s, 'Claude');
  await s.store.add('batches', { title: 'Only one' }, ann);
  await s.store.approve(1, true, ann);
  const ask = (op: string, args: Record<string, unknown> = {}) => askKeeper(dir, op, args, { waitMs: 10_000 });

  // Taken through the folder: over HTTP the same agent holds it, and takes it again as its own.
  assert.match(said(await ask('take', { id: '1', for: '10m' })), /^You hold #1 Only one/);
  const ready = await s.call('GET', '/api/ready?list=batches');
  assert.match(ready.json.text, /You hold #1 Only one until/);
  const again = await s.call('POST', '/api/take', { body: { id: 1, for: '20m' } });
  assert.equal(again.status, 200, again.json.text);
  assert.match(again.json.text, /^You hold #1 Only one .* for 20m from now, until .* \(it was until /);
  assert.equal((await s.store.get(1, ann)).record.lease?.by.id, 'agent:claude');

  // Another agent is refused, through any face.
  const codex = await s.call('POST', '/api/take', { token: s.tokens.Codex!, body: { id: 1 } });
  assert.equal(codex.status, 409);
  assert.match(codex.json.text, /^#1 is taken by Claude until/);

  // Given back over HTTP: free for the folder too.
  assert.match((await s.call('POST', '/api/release', { body: { id: 1 } })).json.text, /^Gave back #1; it is free/);
  assert.match(said(await ask('take', { next: 'batches' })), /^You hold #1 Only one/);

  // One place in the history: what the folder's brief told is not told again over HTTP.
  await s.store.note(1, 'look at the login page', ann);
  assert.match(said(await ask('brief')), /note by Ann: look at the login page/);
  assert.match((await s.call('GET', '/api/brief')).json.text, /^Nothing changed since you last looked/);

  // One grant: read only for Claude now, through both.
  await s.store.grant('batches', 'Claude', 'read', ann);
  assert.match(said(await ask('note', { id: '1', text: 'x' })), /^refused: You may only read "Batches"/);
  const note = await s.call('POST', '/api/note', { body: { id: 1, text: 'x' } });
  assert.equal(note.status, 403);
  assert.match(note.json.text, /^You may only read "Batches"/);
});
