/**
 * `binder init` as a person runs it in a project's directory: fresh, it makes the list, the
 * agent's folder (registered, granted, left out of git) and says how to connect an agent, who
 * then asks through a real keeper; again, it says what is there and changes nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { binderAsync, binder, serveKeeper } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp.js';

function project(t: import('node:test').TestContext) {
  const root = tempDir(t);
  const site = join(root, 'site');
  mkdirSync(site);
  const env = { XDG_CONFIG_HOME: join(root, 'config'), BINDER_STORE: join(root, 'store'), BINDER_DIR: '' };
  return { root, site, env, run: (...args: string[]) => binder(args, { cwd: site, env }) };
}

test('init sets a project up in one step, and an agent asks through it at once', async (t) => {
  const { site, env, run } = project(t);
  const made = run('init');
  assert.equal(made.code, 0, made.err);
  assert.match(made.out, /^Made batches: Batches \(board\)/m);
  assert.match(made.out, new RegExp(`The keeper reads ${join(site, '.binder')} as site \\(agent:site\\)\\.`));
  assert.match(made.out, /site may now read and change batches/);
  assert.match(made.out, /claude mcp add binder -- binder-mcp --dir ".*\/site\/\.binder"/);
  assert.match(made.out, /"mcpServers"/);
  assert.match(made.out, /binder sandbox -- /);
  assert.equal(readFileSync(join(site, '.binder', '.gitignore'), 'utf8').split('\n').filter((l) => l && !l.startsWith('#')).join(), '*');
  assert.equal(statSync(join(site, '.binder')).mode & 0o777, 0o700);

  await serveKeeper(t, [], env);
  const added = await binderAsync(['add', 'Batches', 'Dark mode'], { cwd: site, env });
  assert.equal(added.code, 0, added.err);
  const lists = await binderAsync(['lists'], { cwd: site, env });
  assert.match(lists.out, /batches: Batches, 1 record.*you may change it/);
});

test('init again says what is there and changes nothing', (t) => {
  const { site, run } = project(t);
  assert.equal(run('init', '--agent', 'Claude', '--list', 'Site work', '--template', 'tasks').code, 0);
  writeFileSync(join(site, '.binder', '.gitignore'), 'mine\n');
  const seen = () => ['lists', 'sides', 'lists --archived'].map((words) => run('admin', ...words.split(' ')).out).join('\n');
  const before = seen();
  const again = run('init', '--agent', 'Other', '--list', 'Site work', '--template', 'tasks');
  assert.equal(again.code, 0, again.err);
  assert.match(again.out, /The list site-work \(Site work\) is there already\./);
  assert.match(again.out, /as Claude \(agent:claude\) already\./);
  assert.match(again.out, /Claude may write site-work already\./);
  assert.doesNotMatch(again.out, /^(Made|Wrote)/m);
  assert.equal(readFileSync(join(site, '.binder', '.gitignore'), 'utf8'), 'mine\n', 'a .gitignore of the person\'s is left as it is');
  assert.equal(seen(), before, 'the binder is as it was');
  assert.match(run('admin', 'sides').out, /^Claude \(agent:claude\)/m);
  assert.doesNotMatch(run('admin', 'sides').out, /Other/);
});

test('init refuses what it cannot do, with a sentence, and makes nothing', (t) => {
  const { site, run } = project(t);
  const bad = run('init', '--template', 'nope');
  assert.equal(bad.code, 64);
  assert.match(bad.err, /no template "nope": batches, tasks/);
  const noName = run('init', '--agent', '!!!');
  assert.equal(noName.code, 64);
  assert.match(noName.err, /need a name with a letter or a digit/);
  assert.throws(() => statSync(join(site, '.binder')));
});
