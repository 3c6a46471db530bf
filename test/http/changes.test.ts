/**
 * The stream of changes (`GET /api/changes`) read with plain fetch on a real socket: one event per
 * change the agent may see — a person's, another agent's, another process's — never its own
 * doings nor a hidden list's; it resumes after Last-Event-ID and never moves the agent's brief.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { startHttp } from '../../src/http/listen.js';
import { binderAsync } from '../helpers/processes.js';
import { until } from '../helpers/temp.js';
import { ann, served, type Served } from './kit.js';

interface Event { id: string; event: string; data: { kind: string; record: number; line: string; by: { id: string } } }

/** Opens the stream and gathers its events as they come. */
async function stream(t: TestContext, url: string, token: string, headers: Record<string, string> = {}, query = ''): Promise<{ events: Event[]; status: number; close(): void }> {
  const stop = new AbortController();
  const res = await fetch(`${url}/api/changes${query}`, { headers: { authorization: `Bearer ${token}`, ...headers }, signal: stop.signal });
  const events: Event[] = [];
  if (res.status === 200 && res.body) {
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          buffer += decoder.decode(value, { stream: true });
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const field = (name: string): string | undefined => block.split('\n').find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2);
            const data = field('data');
            if (data) events.push({ id: field('id') ?? '', event: field('event') ?? '', data: JSON.parse(data) as Event['data'] });
          }
        }
      } catch {
        // Closed by the test.
      }
    })();
  }
  t.after(() => stop.abort());
  return { events, status: res.status, close: () => stop.abort() };
}

/** A stream of changes read as raw text, to see how it ends: true from endedWithin once the keeper ended it. */
async function rawStream(url: string, token: string): Promise<{ text(): string; endedWithin(ms: number): Promise<boolean> }> {
  const res = await fetch(`${url}/api/changes`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(res.status, 200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const read = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return true;
      text += decoder.decode(value, { stream: true });
    }
  })();
  return {
    text: () => text,
    endedWithin: (ms) => Promise.race([read, new Promise<false>((resolve) => setTimeout(() => resolve(false), ms))]),
  };
}

async function listening(t: TestContext, s: Served): Promise<string> {
  const serving = await startHttp(s.keeper, { host: '127.0.0.1', port: 0, behindProxy: false, allowHosts: [] }, { log: () => {} });
  t.after(() => serving.close());
  return serving.url;
}

test('one event per change the agent may see: a person\'s, another agent\'s, another process\'s; never its own, never a hidden list\'s', async (t) => {
  const s = await served(t, { agents: ['Claude', 'Codex'] });
  const url = await listening(t, s);
  await s.call('GET', '/api/brief');
  const changes = await stream(t, url, s.tokens.Claude!);
  assert.equal(changes.status, 200);
  await s.call('POST', '/api/add', { body: { list: 'Batches', title: 'Mine' } });
  await s.store.add('hidden', { title: 'Secret' }, ann);
  await s.call('POST', '/api/add', { token: s.tokens.Codex!, body: { list: 'Batches', title: 'From Codex' } });
  await until(() => changes.events.length >= 1, 5_000, 'the first event');
  await s.keeper.act('approve', { id: 1 }, ann);
  await until(() => changes.events.length >= 2, 5_000, 'the approval');
  const admin = await binderAsync(['admin', '--store', s.storeDir, '--as', 'Bea', 'note', '1', 'from a shell']);
  assert.equal(admin.code, 0, admin.err);
  await until(() => changes.events.length >= 3, 5_000, 'the note from another process');
  assert.deepEqual(changes.events.map((e) => e.data.line), [
    '#3 From Codex (batches): added by Codex in Proposed',
    '#1 Mine (batches): approved by Ann',
    '#1 Mine (batches): note by Bea: from a shell',
  ]);
  assert.ok(changes.events.every((e) => e.event === 'change' && e.id === String((e.data as unknown as { id: number }).id)));
  assert.ok(!changes.events.some((e) => /Secret|Mine \(batches\): added/.test(e.data.line)));
  // Only a look: the brief still tells each change once.
  assert.match((await s.call('GET', '/api/brief')).json.text, /^3 changes since you last looked:/);
});

test('the stream starts with what brief would show, resumes after Last-Event-ID, narrows with ?on=, and needs a token', async (t) => {
  const s = await served(t);
  const url = await listening(t, s);
  await s.call('GET', '/api/brief');
  await s.store.add('batches', { title: 'One' }, ann);
  await s.store.add('batches', { title: 'Two' }, ann);
  const first = await stream(t, url, s.tokens.Claude!);
  await until(() => first.events.length === 2, 5_000, 'what brief would show');
  first.close();
  const after = first.events[0]!.id;
  await s.store.add('batches', { title: 'Three' }, ann);
  const resumed = await stream(t, url, s.tokens.Claude!, { 'last-event-id': after });
  await until(() => resumed.events.length === 2, 5_000, 'the events after the first');
  assert.deepEqual(resumed.events.map((e) => e.data.line), ['#2 Two (batches): added by Ann in Proposed', '#3 Three (batches): added by Ann in Proposed']);
  const onOne = await stream(t, url, s.tokens.Claude!, {}, '?on=%231');
  await until(() => onOne.events.length === 1, 5_000, 'the events of #1');
  assert.match(onOne.events[0]!.data.line, /^#1 One/);
  assert.equal((await stream(t, url, s.tokens.Claude!, {}, '?on=Hidden')).status, 403);
  assert.equal((await fetch(`${url}/api/changes`)).status, 401);
});

test('a client that does not read its stream is cut off once far behind, and what waited for it is dropped', { timeout: 120_000 }, async (t) => {
  const s = await served(t);
  s.store.db.pragma('synchronous = OFF');
  const url = await listening(t, s);
  const socket = connect(Number(new URL(url).port), '127.0.0.1');
  t.after(() => socket.destroy());
  let read = 0;
  let closed = false;
  socket.on('data', (c: Buffer) => { read += c.length; });
  socket.on('error', () => {});
  socket.on('close', () => { closed = true; });
  socket.write(`GET /api/changes HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${s.tokens.Claude}\r\n\r\n`);
  await until(() => read > 0, 5_000, 'the stream to start');
  socket.pause();
  // Changes by a person, each an event for the agent, while it reads nothing.
  let made = 0;
  for (let round = 0; round < 60 && !closed; round++) {
    await s.store.transaction(async (tx) => {
      for (let i = 0; i < 1000; i++) await tx.add('batches', { title: `change ${made++} with a title long enough to fill a stream quickly` }, ann);
    });
    await new Promise((r) => setImmediate(r));
  }
  socket.resume();
  await until(() => closed, 30_000, 'the server to cut the stream off');
  const events = Math.floor(read / 250);
  assert.ok(events < made, `${made} changes made, about ${events} sent: the rest was dropped with the connection`);
});

test('a token revoked while its stream is open: the stream is told so and ends at once, telling nothing more; another agent\'s goes on', async (t) => {
  const s = await served(t, { agents: ['Claude', 'Codex'] });
  const url = await listening(t, s);
  const claude = await rawStream(url, s.tokens.Claude!);
  const codex = await stream(t, url, s.tokens.Codex!);
  await until(() => claude.text().includes(': changes for agent:claude'), 5_000, 'the stream open');
  const revoked = await s.store.revokeTokens('Claude', ann);
  assert.equal(revoked.length, 1);
  // The revocation is a change: it wakes the stream, which ends with no other change.
  assert.equal(await claude.endedWithin(3000), true, `the stream ended: ${claude.text()}`);
  await s.store.add('batches', { title: 'After the revocation' }, ann);
  assert.match(claude.text(), /event: refused\ndata: .*was revoked/);
  assert.doesNotMatch(claude.text(), /After the revocation/, 'nothing told after the revocation');
  await until(() => codex.events.some((e) => /After the revocation/.test(e.data.line)), 5_000, 'the other agent told');
});

test('a token that expires while its stream is open: the next change ends the stream, telling it nothing', async (t) => {
  const s = await served(t);
  const url = await listening(t, s);
  const token = (await s.store.addToken('Brief', { expiresMs: 1500 }, ann)).token;
  await s.store.grant('batches', 'Brief', 'read', ann);
  const brief = await rawStream(url, token);
  // The token's lapse is what is tested: it is let run out, on the clock its keeper reads.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  await s.store.add('batches', { title: 'After its expiry' }, ann);
  assert.equal(await brief.endedWithin(3000), true, `the stream ended: ${brief.text()}`);
  assert.match(brief.text(), /event: refused\ndata: .*expired on /);
  assert.doesNotMatch(brief.text(), /After its expiry/);
});
