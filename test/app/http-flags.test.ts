/**
 * The HTTP face's options, declared once (src/http/flags.ts): `binder tui` reads each of them as
 * `binder serve` (commander) does, says each in its help, and a configuration file's [serve]
 * takes each of them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HTTP_FLAGS, kindOf, type HttpFlag } from '../../src/http/flags.js';
import { serveProgram } from '../../src/app/serve.js';
import { readOptions, USAGE, type TuiOptions } from '../../src/app/tui-options.js';
import { ConfigProblem, personDefaults } from '../../src/app/config.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/temp.js';

const FLAGS = HTTP_FLAGS as readonly HttpFlag[];

/** Command lines that use `flag`, each its own way: alone, with a value, with `=`, twice. */
function linesOf(flag: HttpFlag): string[][] {
  const option = `--${flag.name}`;
  switch (kindOf(flag)) {
    case 'flag': return [[option]];
    case 'text': return [[option, 'one'], [`${option}=one`], [option, '--dashed']];
    case 'texts': return [[option, 'one', option, 'two'], [`${option}=one`]];
    case 'text-or-flag': return [[option], [option, '0.0.0.0:4180'], [`${option}=4180`], [option, '--behind-proxy']];
    default: throw new Error(`unknown kind ${kindOf(flag)}`);
  }
}

test('binder tui reads every HTTP option as binder serve does', () => {
  for (const flag of FLAGS) {
    for (const line of linesOf(flag)) {
      const serve = serveProgram().parse(line, { from: 'user' }).opts();
      const { lang: _lang, side: _side, workers: _workers, tui: _tui, ...fromServe } = serve;
      const read = readOptions(['tui', ...line]);
      assert.ok(!('problem' in read), `${line.join(' ')}: ${JSON.stringify(read)}`);
      assert.deepEqual((read as TuiOptions).http, fromServe, line.join(' '));
    }
  }
});

test('binder tui refuses an HTTP option without its value, and says every one in its help', () => {
  for (const flag of FLAGS) {
    if (kindOf(flag) === 'text' || kindOf(flag) === 'texts') {
      assert.deepEqual(readOptions(['tui', `--${flag.name}`]), { problem: `--${flag.name} takes a value.` });
    }
    assert.ok(USAGE.includes(`--${flag.name}${flag.value ? ` ${flag.value}` : ''}`), `--${flag.name} in binder tui --help`);
    assert.ok(USAGE.includes(flag.help), `what --${flag.name} does, in binder tui --help`);
  }
});

test('a configuration file sets every HTTP option, with its kind of value', (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'config.toml');
  const value = (flag: HttpFlag): string => kindOf(flag) === 'flag' ? 'true' : kindOf(flag) === 'texts' ? '["one"]' : '"one"';
  writeFileSync(file, `[serve]\n${FLAGS.map((f) => `${f.name} = ${value(f)}`).join('\n')}\n`);
  const serve = personDefaults({ BINDER_CONFIG: file }).serve;
  assert.deepEqual(Object.keys(serve).sort(), FLAGS.map((f) => f.name).sort());
  writeFileSync(file, '[serve]\ntls-cert = true\n');
  assert.throws(() => personDefaults({ BINDER_CONFIG: file }), ConfigProblem);
});
