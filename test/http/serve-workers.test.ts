/**
 * `binder serve --no-tui --http … --workers N`: N keepers of one store on one address, and one
 * more that makes their changes. Its start lines said once (one login link), answers from every
 * worker, changes made by the writer, each change done once whichever worker a retry reaches, a
 * worker killed replaced, the writer killed under changes with nothing lost nor done twice, a stop
 * that ends them all; a store that cannot be kept said once, and wrong numbers refused before
 * anything starts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { binder, binderAsync, serveKeeper } from '../helpers/processes.js';
import { cluster, dropDatabase, postgresMissing } from '../helpers/postgres.js';
import { tempDir, until } from '../helpers/temp.js';

/** A binder at `dir` (a folder, or a PostgreSQL URL) with a list, a record and Claude's token. */
function store(dir: string): { dir: string; token: string } {
  assert.equal(binder(['admin', '--store', dir, 'create-list', 'Batches', '--template', 'batches']).code, 0);
  assert.equal(binder(['admin', '--store', dir, 'add', 'batches', 'Noted']).code, 0);
  const made = binder(['admin', '--store', dir, 'token', 'add', 'Claude']);
  assert.equal(made.code, 0, made.err);
  assert.equal(binder(['admin', '--store', dir, 'grant', 'batches', 'Claude', 'write']).code, 0);
  return { dir, token: made.out.split('\n')[0]! };
}

const urlIn = (out: string): string => /Answering on (https?:\/\/[^ ]+) too/.exec(out)?.[1] ?? '';
/** The processes whose parent is `pid` (Linux). */
const childrenOf = (pid: number): number[] =>
  readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
/** CPU time a process has used, in clock ticks (Linux). */
const ticks = (pid: number): number => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(f[11]) + Number(f[12]);
};
const count = (text: string, what: RegExp): number => text.split('\n').filter((l) => what.test(l)).length;
/** The worker that makes the changes, among `pids` (Linux). */
const writerOf = (pids: number[]): number | undefined =>
  pids.find((pid) => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes('BINDER_WORKER_WRITES=1'));

/** One POST on a connection of its own (so that the two of a pair may reach two workers). */
function post(url: string, token: string, path: string, body: unknown, key: string): Promise<{ status: number; body: string; replayed: boolean }> {
  const agent = new Agent({ keepAlive: false });
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, {
      method: 'POST', agent,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key },
    }, (res) => {
      let text = '';
      res.on('data', (c) => { text += c; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, replayed: res.headers['idempotent-replayed'] === 'true' }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

test('serve --workers 2: said once, answered by both, changes made by the writer, each once whichever worker a retry reaches; a killed worker replaced, the writer too, nothing lost nor done twice', { timeout: 120_000 }, async (t) => {
  if (process.platform !== 'linux') return t.skip('looks at /proc');
  const root = tempDir(t);
  const s = store(join(root, 'store'));
  const keeper = await serveKeeper(t, ['--store', s.dir, '--http', '127.0.0.1:0', '--workers', '2', '--quiet']);
  const url = urlIn(keeper.out());
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
  const out = keeper.out();
  assert.equal(count(out, /^Answering on /), 1, out);
  assert.equal(count(out, /^No login link here /), 1, 'said once; no link made for a pipe');
  assert.equal(count(out, /^Binder kept in /), 1);
  assert.match(out, /^2 keeper processes answer on that address; one more makes their changes\.\nStop with Ctrl-C\.$/m);
  const started = childrenOf(keeper.child.pid!);
  assert.equal(started.length, 3);
  const writer = writerOf(started);
  assert.ok(writer !== undefined, 'one worker writes');
  const workers = started.filter((pid) => pid !== writer);

  const before = workers.map(ticks);
  const writerBefore = ticks(writer);
  // Each key asked twice at once, on connections of their own: done once, the other answered from the ledger.
  const keys = Array.from({ length: 60 }, () => randomUUID());
  const answers = await Promise.all(keys.flatMap((key, i) => [0, 1].map(() =>
    post(url, s.token, '/api/note', { id: 1, text: `note ${i}` }, key))));
  assert.ok(answers.every((a) => a.status === 200), answers.find((a) => a.status !== 200)?.body);
  assert.equal(answers.filter((a) => a.replayed).length, keys.length, 'one of each pair answered again');
  for (let i = 0; i < keys.length; i++) assert.equal(JSON.parse(answers[2 * i]!.body).text, JSON.parse(answers[2 * i + 1]!.body).text);
  const shown = binder(['admin', '--store', s.dir, 'get', '1', '--json']);
  assert.equal(shown.code, 0, shown.err);
  assert.equal((JSON.parse(shown.out) as { counts: { notes: number } }).counts.notes, keys.length, 'each change done once');
  // Both workers did some of it (connections go to each in turn).
  workers.forEach((pid, i) => assert.ok(ticks(pid) > before[i]!, `worker ${pid} answered some`));
  assert.ok(ticks(writer) > writerBefore, 'the writer made them');

  // A worker killed: another takes its place, and the address answers all the while.
  process.kill(workers[0]!, 'SIGKILL');
  await until(() => /keeper process \d+ ended \(signal SIGKILL\); another takes its place/.test(keeper.err()), 10_000, 'the minder says so');
  await until(() => childrenOf(keeper.child.pid!).length === 3 && !childrenOf(keeper.child.pid!).includes(workers[0]!), 15_000, 'a new worker');
  for (let i = 0; i < 10; i++) {
    const r = await fetch(`${url}/api/get?id=1`, { headers: { authorization: `Bearer ${s.token}` } });
    assert.equal(r.status, 200);
  }

  // The writer killed while changes with keys are asked: each answered, each made once, and another writer takes its place.
  const more = Array.from({ length: 120 }, () => randomUUID());
  let answered = 0;
  const asked = Promise.all(more.map((key, i) => post(url, s.token, '/api/note', { id: 1, text: `more ${i}` }, key).then((a) => { answered++; return a; })));
  // Killed once the writer is at work on them: some answered, the others in its hands or on their way.
  await until(() => answered > 0, 30_000, 'the first of them answered');
  process.kill(writer, 'SIGKILL');
  const got = await asked;
  assert.ok(got.every((a) => a.status === 200), got.find((a) => a.status !== 200)?.body);
  await until(() => new RegExp(`keeper process ${writer} ended \\(signal SIGKILL\\)`).test(keeper.err()), 10_000, 'the minder says so');
  await until(() => { const now = writerOf(childrenOf(keeper.child.pid!)); return now !== undefined && now !== writer; }, 15_000, 'a new writer');
  const after = await post(url, s.token, '/api/note', { id: 1, text: 'after' }, randomUUID());
  assert.equal(after.status, 200, after.body);
  const counted = binder(['admin', '--store', s.dir, 'get', '1', '--json']);
  assert.equal((JSON.parse(counted.out) as { counts: { notes: number } }).counts.notes, keys.length + more.length + 1, 'nothing lost, nothing done twice');
  const all = childrenOf(keeper.child.pid!);
  assert.equal(await keeper.stop(), 0);
  assert.equal(count(keeper.out(), /^Binder no longer kept\.$/), 1, 'said once, by the minder');
  for (const pid of all) assert.throws(() => process.kill(pid, 0), 'no worker left');
});

test('serve --workers 2: the agents\' folders are kept by the writer alone (stopped, their asks wait; going on, it answers them)', { timeout: 120_000 }, async (t) => {
  if (process.platform !== 'linux') return t.skip('looks at /proc');
  const root = tempDir(t);
  const s = store(join(root, 'store'));
  const folder = join(root, 'site', '.binder');
  mkdirSync(folder, { recursive: true });
  assert.equal(binder(['admin', '--store', s.dir, 'side', 'add', folder, 'Bot']).code, 0);
  assert.equal(binder(['admin', '--store', s.dir, 'grant', 'batches', 'Bot', 'write']).code, 0);
  const keeper = await serveKeeper(t, ['--store', s.dir, '--http', '127.0.0.1:0', '--workers', '2']);
  assert.equal(count(keeper.out(), /^Reading .* as Bot \(agent:bot\)$/), 1, keeper.out());
  const agent = (...args: string[]) => binderAsync(args, { cwd: join(folder, '..') });
  const first = await agent('add', 'Batches', 'Through the folder');
  assert.equal(first.code, 0, first.err);
  const writer = writerOf(childrenOf(keeper.child.pid!))!;
  assert.ok(writer !== undefined, 'one worker writes');
  // The writer stopped: the workers leave its folders to it, so the ask waits for it.
  process.kill(writer, 'SIGSTOP');
  let answered = false;
  const asked = agent('note', '1', 'kept by the writer').then((r) => { answered = true; return r; });
  try {
    // That nothing answers can only be watched for a while: two seconds, many times a worker's turn.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    assert.equal(answered, false, 'no worker answered a folder\'s ask');
  } finally {
    process.kill(writer, 'SIGCONT');
  }
  const noted = await asked;
  assert.equal(noted.code, 0, noted.err);
  const shown = binder(['admin', '--store', s.dir, 'get', '1', '--json']);
  assert.deepEqual((JSON.parse(shown.out) as { record: { notes: { text: string }[] } }).record.notes.map((n) => n.text), ['kept by the writer']);
  assert.equal(await keeper.stop(), 0);
});

test('serve --workers: a store that cannot be kept said once (exit 2); wrong numbers and no --http refused before anything starts', { timeout: 60_000 }, async (t) => {
  const root = tempDir(t);
  const s = store(join(root, 'store'));
  const notFolder = join(root, 'store', 'binder.db');
  const bad = binder(['serve', '--no-tui', '--store', notFolder, '--http', '127.0.0.1:0', '--workers', '3']);
  assert.equal(bad.code, 2, bad.err);
  assert.equal(count(bad.err, /it is not a folder/), 1, bad.err);
  assert.doesNotMatch(bad.out, /Stop with|no longer kept/);
  for (const n of ['0', '65', 'two', '-1', '1.5']) {
    const r = binder(['serve', '--no-tui', '--store', s.dir, '--http', '127.0.0.1:0', '--workers', n]);
    assert.equal(r.code, 64, n);
    assert.match(r.err, /--workers takes a number from 1 to 64/);
  }
  const noHttp = binder(['serve', '--no-tui', '--store', s.dir, '--workers', '2']);
  assert.equal(noHttp.code, 64);
  assert.match(noHttp.err, /--workers shares an HTTP address among keepers: give --http too/);
});

test('serve --workers 2 on PostgreSQL: no writer (the database takes the workers\' changes at once), each change once', { skip: postgresMissing() ?? false, timeout: 120_000 }, async (t) => {
  if (process.platform !== 'linux') return t.skip('looks at /proc');
  const c = await cluster();
  const url = c.database();
  const s = store(url);
  const keeper = await serveKeeper(t, ['--store', url, '--http', '127.0.0.1:0', '--workers', '2', '--quiet']);
  // After the keepers' end (hooks run in the order they are added).
  t.after(() => dropDatabase(c, url));
  assert.match(keeper.out(), /^2 keeper processes answer on that address\.\nStop with Ctrl-C\.$/m);
  const workers = childrenOf(keeper.child.pid!);
  assert.equal(workers.length, 2);
  assert.equal(writerOf(workers), undefined, 'no writer');
  const keys = Array.from({ length: 40 }, () => randomUUID());
  const answers = await Promise.all(keys.flatMap((key, i) => [0, 1].map(() => post(urlIn(keeper.out()), s.token, '/api/note', { id: 1, text: `note ${i}` }, key))));
  assert.ok(answers.every((a) => a.status === 200), answers.find((a) => a.status !== 200)?.body);
  const shown = binder(['admin', '--store', url, 'get', '1', '--json']);
  assert.equal((JSON.parse(shown.out) as { counts: { notes: number } }).counts.notes, keys.length, 'each change done once');
  assert.equal(await keeper.stop(), 0);
});
