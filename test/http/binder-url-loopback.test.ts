/**
 * `binder --url` and `binder-mcp --url` send a token over `http://` to a loopback address alone:
 * a parsed IP in 127.0.0.0/8 or ::1, or `localhost` resolved to one. A name that merely begins
 * like one (`127.0.0.1.evil.example`) is another machine: refused before anything is sent — even
 * when the name resolves to this machine (a resolver that says so for every name, as a rebinding
 * attacker's DNS would, is put in the process: the listener hears nothing). `localhost` is
 * resolved once and asked at the address it came to; one that comes to another is refused.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHttp } from '../../src/http/listen.js';
import { askOverHttp, loopbackAddress, remoteOf } from '../../src/agent/remote-ask.js';
import { BINDER_MCP, binderAsync } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp.js';
import { served } from './kit.js';

const env = (token: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => {
  const out: NodeJS.ProcessEnv = { ...process.env };
  delete out.BINDER_DIR;
  delete out.BINDER_URL;
  return { ...out, BINDER_TOKEN: token, ...extra };
};

/** A resolver that says every name is 127.0.0.1, put in a process with --import. */
function everyNameHere(t: TestContext): string {
  const hook = join(tempDir(t), 'every-name-here.mjs');
  writeFileSync(hook, `import dns from 'node:dns';
dns.lookup = function lookup(name, options, callback) {
  if (typeof options === 'function') { callback = options; options = {}; }
  const all = typeof options === 'object' && options !== null && options.all;
  process.nextTick(() => (all ? callback(null, [{ address: '127.0.0.1', family: 4 }]) : callback(null, '127.0.0.1', 4)));
};
dns.promises.lookup = async (name, options) => (options && options.all ? [{ address: '127.0.0.1', family: 4 }] : { address: '127.0.0.1', family: 4 });
`);
  return hook;
}

test('loopback is a parsed address in 127.0.0.0/8 or ::1; a name that begins like one is not', () => {
  for (const host of ['127.0.0.1', '127.255.0.9', '::1']) assert.ok(loopbackAddress(host), host);
  for (const host of ['127.0.0.1.evil.example', '127.evil.example', 'localhost', '::ffff:7f00:1', '10.0.0.1', '0.0.0.0']) assert.ok(!loopbackAddress(host), host);
  const token = 'binder_x';
  for (const url of ['http://127.0.0.1.evil.example', 'http://127.0.0.1.evil.example:4180/', 'http://127.evil.example', 'http://127.0.0.1.nip.io',
    'http://localhost.evil.example', 'http://localhost.', 'http://[::ffff:127.0.0.1]:4180']) {
    const r = remoteOf({ url }, { BINDER_TOKEN: token });
    assert.ok(r && 'problem' in r, url);
    assert.match(r.problem, /http:\/\/ would send the token in clear/, url);
  }
  for (const url of ['http://127.0.0.1:4180', 'http://127.1:4180', 'http://2130706433:4180', 'http://[::1]:4180', 'http://[0:0:0:0:0:0:0:1]:4180', 'https://127.0.0.1.evil.example']) {
    const r = remoteOf({ url }, { BINDER_TOKEN: token });
    assert.ok(r && !('problem' in r), url);
  }
});

test('a name that resolves here is still another machine: binder and binder-mcp send it nothing', { timeout: 60_000 }, async (t) => {
  let heard = 0;
  const listener = createServer((req, res) => {
    heard += 1;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true,"text":"took it","data":null}');
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  t.after(() => listener.close());
  const port = (listener.address() as AddressInfo).port;
  const hook = everyNameHere(t);
  const token = `binder_${'T'.repeat(43)}`;
  for (const name of ['127.0.0.1.evil.example', '127.evil.example', 'localhost.evil.example']) {
    const url = `http://${name}:${port}`;
    const asked = await binderAsync(['--url', url, 'lists'], { env: env(token, { NODE_OPTIONS: `--import=${hook}` }) });
    assert.equal(asked.code, 2, `${name}: ${asked.out}${asked.err}`);
    assert.match(asked.err, new RegExp(`http:// would send the token in clear to ${name.replace(/\./g, '\\.')}: use https://`));
    const mcp = spawnSync(process.execPath, [`--import=${hook}`, BINDER_MCP, '--url', url], { env: env(token), input: '', encoding: 'utf8', timeout: 30_000 });
    assert.equal(mcp.status, 2, `${name}: ${mcp.stderr}`);
    assert.match(mcp.stderr, /would send the token in clear/);
  }
  assert.equal(heard, 0, 'no request, so no token, reached the listener');
  // The resolver hook works: the same name over a loopback address of its own is asked.
  const direct = await binderAsync(['--url', `http://127.0.0.1:${port}`, 'lists'], { env: env(token, { NODE_OPTIONS: `--import=${hook}` }) });
  assert.equal(direct.code, 0, direct.err);
  assert.equal(heard, 1);
});

test('localhost is asked at the loopback address it resolves to; one that resolves elsewhere, or to nothing, is refused unsent', { timeout: 60_000 }, async (t) => {
  const s = await served(t);
  const serving = await startHttp(s.keeper, { host: '127.0.0.1', port: 0, behindProxy: false, allowHosts: [] }, { log: () => {} });
  t.after(() => serving.close());
  const token = s.tokens.Claude!;
  const url = `http://localhost:${serving.port}`;
  const viaName = await binderAsync(['--url', url, 'lists'], { env: env(token) });
  assert.equal(viaName.code, 0, viaName.err);
  assert.match(viaName.out, /batches: Batches/);
  const remote = remoteOf({ url }, { BINDER_TOKEN: token });
  assert.ok(remote && !('problem' in remote));
  const elsewhere = await askOverHttp(remote, 'lists', {}, { lookup: async () => [{ address: '127.0.0.1', family: 4 }, { address: '203.0.113.9', family: 4 }] });
  assert.equal(elsewhere.outcome, 'no-folder');
  assert.match(elsewhere.text, /localhost does not resolve to a loopback address here \(127\.0\.0\.1, 203\.0\.113\.9\)/);
  const nowhere = await askOverHttp(remote, 'lists', {}, { lookup: async () => { throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' }); } });
  assert.match(nowhere.text, /\(to none\)/);
  const here = await askOverHttp(remote, 'lists', {}, { lookup: async () => [{ address: '127.0.0.1', family: 4 }] });
  assert.equal(here.outcome, 'answered');
});
