/**
 * The README's examples, run as written: its shell lines are read from README.md and run by `sh`
 * against a real keeper (`binder serve --no-tui`) on a fresh store and folder in a temporary home,
 * each line's outcome checked against what the README says of it (a `# refused:` comment, "now
 * succeeds"), and its printed output compared where the README shows it. Not run: `npm …`
 * (installing), `binder tui` (run as the `binder serve --no-tui` the same line offers), `claude`
 * (in `binder sandbox`, `binder doctor` stands for it), `claude mcp add` and the MCP client's
 * configuration (another program's).
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { personOperation } from '../../src/keeper/operations.js';
import { BINDER, ROOT } from '../helpers/processes.js';
import { tempDir, until } from '../helpers/temp.js';

interface Block { section: string; lines: string[]; before: string }

/** The README's indented blocks, each with its section and the prose just before it. */
function readmeBlocks(): Block[] {
  const out: Block[] = [];
  let section = '';
  let prose: string[] = [];
  let block: string[] | null = null;
  for (const line of readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n')) {
    if (line.startsWith('    ') && (block || prose.at(-1) === '')) {
      block ??= [];
      block.push(line.slice(4));
      continue;
    }
    if (block) {
      out.push({ section, lines: block, before: prose.join('\n') });
      block = null;
      prose = [];
    }
    if (line.startsWith('## ')) { section = line.slice(3); prose = []; } else prose.push(line);
  }
  if (block) out.push({ section, lines: block, before: prose.join('\n') });
  return out;
}

/** The `binder …` words in backticks in `prose` that can be run as they stand (no placeholder). */
const inlineCommands = (prose: string): string[] =>
  [...prose.matchAll(/`(binder [^`]*)`/g)].map((m) => m[1]!).filter((c) => !/[[\]|]|\b[A-Z]{2,}\b|\.\.\./.test(c));

interface Home { home: string; env: NodeJS.ProcessEnv; work: string }

/** A temporary home with `binder` on the PATH, as `npm link` puts it, and no store yet. */
function home(t: TestContext): Home {
  const root = tempDir(t, 'binder-readme-');
  const bin = join(root, 'bin');
  const homeDir = join(root, 'home');
  mkdirSync(bin);
  mkdirSync(join(homeDir, 'work', 'site'), { recursive: true });
  writeFileSync(join(bin, 'binder'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BINDER)} "$@"\n`);
  chmodSync(join(bin, 'binder'), 0o755);
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: homeDir, PATH: `${bin}:${process.env.PATH ?? ''}`, BINDER_WAIT_MS: '15000' };
  for (const name of ['BINDER_STORE', 'BINDER_DIR', 'XDG_DATA_HOME']) delete env[name];
  return { home: homeDir, env, work: join(homeDir, 'work', 'site') };
}

interface Ran { code: number | null; out: string; err: string }
const sh = (h: Home, line: string, cwd: string): Ran => {
  const r = spawnSync('/bin/sh', ['-c', line], { cwd, env: h.env, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

/** `binder serve --no-tui` in the background, as the README's reader starts it; stopped at the test's end. */
async function keep(t: TestContext, h: Home, line: string): Promise<void> {
  const child = spawn('/bin/sh', ['-c', `exec ${line}`], { cwd: h.home, env: h.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c) => { out += c; });
  const ended = new Promise((done) => child.on('exit', done));
  t.after(async () => { child.kill('SIGTERM'); await ended; });
  await until(() => out.includes('Stop with Ctrl-C'), 15_000, 'the keeper to start');
}

/** Runs a block's lines, each where the README's reader stands, checked against what the README says of it. */
async function runLines(t: TestContext, h: Home, lines: readonly string[]): Promise<number> {
  let ran = 0;
  for (const line of lines) {
    const [command = '', comment = ''] = line.split(/\s+#\s+/);
    if (command.startsWith('binder tui')) {
      const instead = /or: (binder serve --no-tui)/.exec(comment);
      assert.ok(instead, `the README offers a keeper without a terminal beside ${line}`);
      await keep(t, h, instead[1]!);
      continue;
    }
    // The agent started in the sandbox: here `binder doctor` stands for it, and finds it contained.
    if (/^binder sandbox .*-- claude$/.test(command)) {
      const r = sh(h, command.replace(/claude$/, `${JSON.stringify(process.execPath)} ${JSON.stringify(BINDER)} doctor`), h.work);
      assert.equal(r.code, 0, `${command}, with binder doctor for claude, finds it contained: ${r.out}${r.err}`);
      assert.match(r.out, /^Contained \(in binder sandbox\)/m);
      ran++;
      continue;
    }
    const r = sh(h, command, command.startsWith('binder admin') ? h.home : h.work);
    const refused = /^refused: (.*)$/.exec(comment);
    if (refused) {
      assert.equal(r.code, 1, `${command} is refused, as the README says: ${r.out}${r.err}`);
      assert.ok(r.err.includes(refused[1]!), `${command} says ${refused[1]}: ${r.err}`);
    } else {
      assert.equal(r.code, 0, `${command} is done: ${r.out}${r.err}`);
    }
    ran++;
  }
  return ran;
}

test('the README\'s quick start, run as written on a fresh store', { timeout: 120_000 }, async (t) => {
  const h = home(t);
  const blocks = readmeBlocks().filter((b) => b.section === 'Quick start');
  assert.ok(blocks.length >= 4, 'the quick start\'s blocks are found');
  let ran = 0;
  for (const block of blocks) ran += await runLines(t, h, block.lines);
  // The prose after the last block says what now succeeds.
  const prose = readFileSync(join(ROOT, 'README.md'), 'utf8').split('## Quick start')[1]!.split('\n## ')[0]!.split(blocks.at(-1)!.lines.at(-1)!)[1]!;
  const after = inlineCommands(prose);
  assert.ok(after.length >= 2, 'the quick start ends with the commands that now succeed');
  ran += await runLines(t, h, after);
  const got = sh(h, 'binder get 1', h.work);
  assert.match(got.out, /^#1 Dark mode for the site\nlist batches; state Doing; approved by /);
  // The store is where the README says it is when nothing says otherwise.
  assert.match(sh(h, 'ls ~/.local/share/binder', h.home).out, /binder\.db/);
  t.diagnostic(`${ran} README lines run`);
});

test('the README\'s inline commands for agents run as they stand', { timeout: 60_000 }, (t) => {
  const h = home(t);
  const section = readFileSync(join(ROOT, 'README.md'), 'utf8').split('## Agents: the plain command, or MCP')[1]!.split('\n## ')[0]!;
  const commands = inlineCommands(section);
  assert.ok(commands.includes('binder --help') && commands.includes('binder add --help'));
  // A person's operation typed there is refused, as the README says of `binder approve`.
  for (const command of commands) assert.equal(sh(h, command, h.work).code, personOperation(command.split(' ').slice(1)) ? 1 : 0, command);
});

test('the README\'s agents\' loop prints what the README shows, and brief says what it shows', { timeout: 120_000, skip: spawnSync('jq', ['--version']).status === 0 ? false : 'jq is not installed here; the README\'s loop uses it' }, async (t) => {
  const h = home(t);
  const all = readmeBlocks().filter((b) => b.section === 'Agents working together');
  const loop = all.find((b) => b.lines[0]!.startsWith('while '));
  assert.ok(loop, 'the loop is found');
  const printed = all[all.indexOf(loop) + 1]!;
  assert.match(printed.before, /which prints/);
  const briefed = all[all.indexOf(loop) + 2]!;
  assert.match(briefed.before, /`binder brief` tells/);

  // As the quick start made it, then: the agent proposed two records, Ann approved them.
  await runLines(t, h, readmeBlocks().find((b) => b.section === 'Quick start')!.lines.slice(0, 3));
  await keep(t, h, 'binder serve --no-tui');
  await runLines(t, h, ['binder add Batches "Dark mode for the login page"', 'binder add Batches "Dark mode for the signup page"',
    'binder admin --as Ann approve 1', 'binder admin --as Ann approve 2']);

  const ran = sh(h, `{\n${loop.lines.join('\n')}\n} 2>&1`, h.work);
  assert.equal(ran.code, 0, ran.err);
  assert.equal(ran.out, `${printed.lines.join('\n')}\n`);

  // What a person did meanwhile: a note.
  await runLines(t, h, ['binder admin --as Ann note 2 "use the same colours as the login page"']);
  const brief = sh(h, 'binder brief', h.work);
  assert.equal(brief.code, 0, brief.err);
  assert.equal(brief.out, `${briefed.lines.join('\n')}\n`);
});
