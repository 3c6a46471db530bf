/**
 * A person's configuration file: what it sets is used by binder admin, binder init and binder
 * serve; a BINDER_* variable wins over it, and a flag over both; binder admin config says what
 * is in force and where each value came from; a file not understood is refused, naming where.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { personDefaults, withTuiDefaults } from '../../src/app/config.js';
import { readOptions, type TuiOptions } from '../../src/app/tui-options.js';
import { binder, serveKeeper } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp.js';

function configured(t: import('node:test').TestContext, toml: (root: string) => string) {
  const root = tempDir(t);
  const file = join(root, 'config', 'binder', 'config.toml');
  mkdirSync(join(root, 'config', 'binder'), { recursive: true });
  writeFileSync(file, toml(root));
  const env = { XDG_CONFIG_HOME: join(root, 'config'), BINDER_STORE: '', BINDER_LANG: '', BINDER_LIST: '', BINDER_CONFIG: '', PGHOST: '', PGDATABASE: '' };
  return { root, file, env, run: (args: string[], more: NodeJS.ProcessEnv = {}) => binder(args, { cwd: root, env: { ...env, ...more } }) };
}

test('the file, then BINDER_*, then a flag: each wins over the one before', (t) => {
  const { root, file, run } = configured(t, (r) => `store = "${join(r, 'from-file')}"\nlang = "fr"\nlist = "Chantier"\n\n[serve]\nhttp = "127.0.0.1:0"\nallow-host = ["binder.example"]\n`);
  const fromFile = run(['admin', 'config']);
  assert.equal(fromFile.code, 0, fromFile.err);
  assert.match(fromFile.out, new RegExp(`^Configuration file: ${file}$`, 'm'));
  assert.match(fromFile.out, new RegExp(`^store = ${join(root, 'from-file')}  \\(the file\\)$`, 'm'));
  assert.match(fromFile.out, /^lang = fr  \(the file\)$/m);
  assert.match(fromFile.out, /^serve\.allow-host = binder\.example  \(the file\)$/m);

  assert.equal(run(['admin', 'create-list', '--template', 'tasks']).code, 0);
  assert.match(run(['admin', 'lists']).out, /tasks: Tasks/, 'the store of the file is used');
  const fromEnv = run(['admin', 'config', '--json'], { BINDER_STORE: join(root, 'from-env'), BINDER_LANG: 'en' });
  const data = JSON.parse(fromEnv.out) as { values: Record<string, { value: unknown; from: string }> };
  assert.deepEqual(data.values.store, { value: join(root, 'from-env'), from: 'BINDER_STORE' });
  assert.deepEqual(data.values.lang, { value: 'en', from: 'BINDER_LANG' });
  assert.doesNotMatch(run(['admin', 'lists'], { BINDER_STORE: join(root, 'from-env') }).out, /tasks/, 'the variable\'s store is used');
  const fromFlag = run(['admin', '--store', join(root, 'from-flag'), 'config'], { BINDER_STORE: join(root, 'from-env') });
  assert.match(fromFlag.out, new RegExp(`^store = ${join(root, 'from-flag')}  \\(--store\\)$`, 'm'));

  // binder init takes the file's language and list.
  mkdirSync(join(root, 'site'));
  const made = binder(['init'], { cwd: join(root, 'site'), env: { XDG_CONFIG_HOME: join(root, 'config'), BINDER_STORE: '', BINDER_LANG: '', BINDER_LIST: '' } });
  assert.equal(made.code, 0, made.err);
  assert.match(made.out, /^Made chantier: Chantier \(board\); states Proposé/m);
});

test('binder serve takes its HTTP options from the file, and a flag over them', async (t) => {
  const { root, env } = configured(t, (r) => `store = "${join(r, 'store')}"\n[serve]\nhttp = "127.0.0.1:0"\nquiet = true\n`);
  const served = await serveKeeper(t, ['--side', `${join(root, '.binder')}=Claude`], env);
  assert.match(served.out(), /http:\/\/127\.0\.0\.1:\d+/, 'it listens where the file says');
  assert.match(served.out(), new RegExp(`Binder kept in ${join(root, 'store')}`));
  await served.stop();
  const other = await serveKeeper(t, ['--store', join(root, 'other'), '--side', `${join(root, '.binder')}=Claude`], env);
  assert.match(other.out(), new RegExp(`Binder kept in ${join(root, 'other')}`));
});

test('binder tui takes the store, the language and the HTTP options from the file, under BINDER_* and its flags', (t) => {
  const { root, env } = configured(t, (r) => `store = "${join(r, 'store')}"\nlang = "fr"\n[serve]\nhttp = "127.0.0.1:4180"\npublic-url = "https://binder.example"\nworkers = "2"\nquiet = true\n`);
  const options = (argv: string[], more: NodeJS.ProcessEnv = {}): TuiOptions =>
    withTuiDefaults(readOptions(['tui', ...argv]) as TuiOptions, personDefaults({ ...env, ...more }));
  const fromFile = options([]);
  assert.equal(fromFile.store, join(root, 'store'));
  assert.equal(fromFile.lang, 'fr');
  assert.deepEqual(fromFile.http, { http: '127.0.0.1:4180', publicUrl: 'https://binder.example' }, 'serve\'s own options (workers, quiet) are not the screen\'s');
  const fromEnv = options([], { BINDER_STORE: join(root, 'env'), BINDER_LANG: 'en' });
  assert.equal(fromEnv.store, join(root, 'env'));
  assert.equal(fromEnv.lang, 'en');
  const fromFlags = options(['--store', join(root, 'flag'), '--lang', 'en', '--http', '127.0.0.1:0', '--public-url', 'http://localhost:8080'], { BINDER_STORE: join(root, 'env') });
  assert.equal(fromFlags.store, join(root, 'flag'));
  assert.equal(fromFlags.lang, 'en');
  assert.deepEqual(fromFlags.http, { http: '127.0.0.1:0', publicUrl: 'http://localhost:8080' });
  // The command reads it: a value of the file that cannot be used is said, and nothing starts.
  const bad = configured(t, () => '[serve]\npublic-url = "https://binder.example/team"\n');
  const said = bad.run(['tui']);
  assert.equal(said.code, 64);
  assert.match(said.err, /binder tui: --public-url only go with --http/);
  const wrong = configured(t, () => 'lang = "de"\n');
  const refused = wrong.run(['tui']);
  assert.equal(refused.code, 64);
  assert.match(refused.err, /^binder tui: In the configuration file .*config\.toml, lang takes "en" or "fr"\./m);
});

test('binder tui\'s terminal notifications: on unless the file says notify = false or --no-notify is given', (t) => {
  const quiet = configured(t, () => 'notify = false\n');
  const options = (argv: string[], env: NodeJS.ProcessEnv): TuiOptions => withTuiDefaults(readOptions(['tui', ...argv]) as TuiOptions, personDefaults(env));
  assert.equal(options([], quiet.env).notify, false);
  const plain = configured(t, () => 'lang = "en"\n');
  assert.notEqual(options([], plain.env).notify, false);
  assert.equal(options(['--no-notify'], plain.env).notify, false);
  const wrong = configured(t, () => 'notify = "no"\n');
  const refused = wrong.run(['tui']);
  assert.equal(refused.code, 64);
  assert.match(refused.err, /notify takes true or false\./);
});

test('a file not understood is refused with a sentence that says where, and nothing is done', (t) => {
  const broken = configured(t, () => 'store = "/x"\nlang = \n');
  const r = broken.run(['admin', 'lists']);
  assert.equal(r.code, 64);
  assert.match(r.err, new RegExp(`The configuration file ${broken.file} is not TOML Binder understands, at line 2`));
  const unknown = configured(t, () => 'stor = "/x"\n');
  assert.match(unknown.run(['admin', 'config']).err, /has "stor", which Binder does not know: store, lang, list, notify and \[serve\] are\./);
  const wrongServe = configured(t, () => '[serve]\nhttp = true\n');
  const s = wrongServe.run(['serve', '--no-tui']);
  assert.equal(s.code, 64);
  assert.match(s.err, /serve\.http takes a string/);
});
