/**
 * The installable package, as a new machine gets it: `npm pack` of the built tree, installed with
 * `npm i -g` into an empty prefix, then `binder --version`, `binder-mcp` answering `tools/list`
 * to the MCP SDK's own client, and `man binder` from the prefix's man pages.
 *
 * SLOW: this test packs and installs (tens of seconds; longer where npm's cache lacks the
 * dependencies and must fetch them). The SQLite driver's native build is skipped here
 * (--ignore-scripts): it compiles SQLite for minutes on a small machine, and nothing checked here
 * opens a store; every other test runs on the driver built as `npm i -g` builds it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { AGENT_OPERATIONS } from '../../src/keeper/operations.js';
import { VERSION } from '../../src/version.js';
import { tempDir } from '../helpers/temp.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function npm(args: string[], cwd: string): string {
  const r = spawnSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, encoding: 'utf8', timeout: 150_000 });
  assert.equal(r.status, 0, `npm ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

test('the packed tarball installs with npm i -g into an empty prefix: binder, binder-mcp and man binder', { timeout: 180_000 }, async (t) => {
  const root = tempDir(t);
  const prefix = join(root, 'prefix');
  mkdirSync(prefix);
  npm(['pack', '--ignore-scripts', '--pack-destination', root], ROOT);
  const tarball = readdirSync(root).find((name) => name.endsWith('.tgz'));
  assert.ok(tarball, 'npm pack made a tarball');
  npm(['install', '--global', '--prefix', prefix, '--prefer-offline', '--ignore-scripts', join(root, tarball)], root);

  const env = { ...process.env, PATH: `${join(prefix, 'bin')}:/usr/bin:/bin`, BINDER_DIR: '' };
  const version = spawnSync(join(prefix, 'bin', 'binder'), ['--version'], { encoding: 'utf8', env, cwd: root });
  assert.equal(version.status, 0, version.stderr);
  assert.equal(version.stdout.trim(), VERSION);

  const folder = join(root, 'site', '.binder');
  mkdirSync(folder, { recursive: true });
  const client = new Client({ name: 'package-test', version: '1' });
  await client.connect(new StdioClientTransport({ command: join(prefix, 'bin', 'binder-mcp'), args: ['--dir', folder], env: env as Record<string, string>, stderr: 'ignore' }));
  t.after(() => client.close());
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((tool) => tool.name).sort(), [...AGENT_OPERATIONS.map((op) => op.name), 'doctor'].sort(), 'the verbs, and doctor beside the agent');

  const man = spawnSync('man', ['binder'], { encoding: 'utf8', env: { ...env, MANPATH: join(prefix, 'share', 'man'), MANPAGER: 'cat', PAGER: 'cat', MANWIDTH: '100' } });
  assert.equal(man.status, 0, man.stderr);
  assert.match(man.stdout.replace(/.\x08/g, ''), /binder show <LIST>/);
  const admin = spawnSync('man', ['binder-admin'], { encoding: 'utf8', env: { ...env, MANPATH: join(prefix, 'share', 'man'), MANPAGER: 'cat', PAGER: 'cat' } });
  assert.equal(admin.status, 0, admin.stderr);
});
