/**
 * Shell completion, run by real bash: the script `binder completion bash` prints is sourced, and
 * the function it registered for `binder` completes partial command lines — a verb, an option,
 * an admin's sub-verb, and a list's name and a state asked of a real keeper through the folder.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BINDER, binder, serveKeeper } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp.js';

/** What bash offers for `line` (completing its last word; a line ending in a space starts a new one). */
function complete(script: string, line: string, env: NodeJS.ProcessEnv, cwd: string): string[] {
  const run = spawnSync('bash', ['--norc', '--noprofile', '-c', `
source "$1"
read -ra COMP_WORDS <<< "$2"
[[ $2 == *' ' ]] && COMP_WORDS+=('')
COMP_CWORD=$(( \${#COMP_WORDS[@]} - 1 )); COMP_LINE=$2; COMP_POINT=\${#2}
spec=$(complete -p binder) || exit 9
fn=\${spec#*-F }; fn=\${fn%% *}
"$fn" binder "\${COMP_WORDS[COMP_CWORD]}" "\${COMP_WORDS[COMP_CWORD-1]}"
printf '%s\\n' "\${COMPREPLY[@]}"`, 'complete', script, line], { encoding: 'utf8', env, cwd, timeout: 30_000 });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout.split('\n').filter(Boolean).sort();
}

test('bash completes verbs, options, an admin\'s sub-verbs, list names and states', async (t) => {
  const root = tempDir(t);
  const bin = join(root, 'bin');
  const site = join(root, 'site');
  mkdirSync(bin);
  mkdirSync(site);
  writeFileSync(join(bin, 'binder'), `#!/bin/sh\nexec "${process.execPath}" "${BINDER}" "$@"\n`);
  chmodSync(join(bin, 'binder'), 0o755);
  const env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, BINDER_STORE: join(root, 'store'), BINDER_DIR: '', XDG_CONFIG_HOME: join(root, 'config') };
  const made = binder(['completion', 'bash'], { env });
  assert.equal(made.code, 0, made.err);
  const script = join(root, 'binder.bash');
  writeFileSync(script, made.out);

  assert.deepEqual(complete(script, 'binder sh', env, site), ['show']);
  assert.deepEqual(complete(script, 'binder re', env, site), ['ready', 'release', 'restore']);
  assert.deepEqual(complete(script, 'binder show --st', env, site), ['--state']);
  assert.deepEqual(complete(script, 'binder --json take --n', env, site), ['--next']);
  assert.deepEqual(complete(script, 'binder admin side ', env, site), ['add', 'list', 'remove']);
  assert.deepEqual(complete(script, 'binder admin gra', env, site), ['grant']);
  assert.deepEqual(complete(script, 'binder admin --st', env, site), ['--store']);
  assert.deepEqual(complete(script, 'binder init --te', env, site), ['--template']);
  assert.deepEqual(complete(script, 'binder tui --no-m', env, site), ['--no-mouse']);
  assert.deepEqual(complete(script, 'binder tui --http 4180 --pub', env, site), ['--public-url']);
  assert.deepEqual(complete(script, 'binder show ', env, site), [], 'no keeper answers: nothing offered, at once');

  assert.equal(binder(['init', '--list', 'Site work'], { cwd: site, env }).code, 0);
  assert.equal(binder(['admin', 'create-list', 'Roadmap', '--template', 'roadmap'], { env }).code, 0);
  assert.equal(binder(['admin', 'grant', 'roadmap', 'site', 'read'], { env }).code, 0);
  await serveKeeper(t, [], env);
  assert.deepEqual(complete(script, 'binder show ', env, site), ['roadmap', 'site-work']);
  assert.deepEqual(complete(script, 'binder show s', env, site), ['site-work']);
  assert.deepEqual(complete(script, 'binder show site-work --state D', env, site), ['Doing', 'Done']);
  assert.equal(binder(['add', 'site-work', 'Dark mode'], { cwd: site, env }).code, 0);
  assert.deepEqual(complete(script, 'binder move 1 ', env, site), ['Approved', 'Doing', 'Done', 'Proposed']);
});

test('zsh and fish scripts are made, and an unknown shell is refused with a sentence', () => {
  const zsh = binder(['completion', 'zsh']);
  assert.equal(zsh.code, 0);
  assert.match(zsh.out, /^#compdef binder/);
  assert.match(zsh.out, /bashcompinit/);
  const fish = binder(['completion', 'fish']);
  assert.equal(fish.code, 0);
  assert.match(fish.out, /complete -c binder -n '__fish_use_subcommand' -a 'lists show get/);
  assert.match(fish.out, /-l state -r -a '\(binder completion names states/);
  const bad = binder(['completion', 'tcsh']);
  assert.equal(bad.code, 64);
  assert.match(bad.err, /bash, zsh or fish/);
});
