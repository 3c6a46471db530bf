/**
 * restore-backup on a terminal: the person is asked (on stderr, stdout keeping the answer) before
 * the binder is replaced; no changes nothing, yes puts the backup back. The terminal is real (tmux).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.js';
import { binder } from '../helpers/processes.js';
import { tempDir, until } from '../helpers/temp.js';
import { hasTmux, NO_TMUX, startScreen } from '../tui/tmux-screen.js';

const ann = { id: 'person:ann', kind: 'person' as const, name: 'ann' };

for (const [answer, replaced] of [['n', false], ['yes', true]] as const) {
  test(`restore-backup asks on the terminal, and "${answer}" ${replaced ? 'puts the backup back' : 'changes nothing'}`, { skip: hasTmux ? false : NO_TMUX }, async (t) => {
    const made = tempDir(t);
    const other = openStore(join(made, 'other'));
    await other.createList({ template: 'blank' }, ann);
    await other.add('blank', { title: 'from the backup' }, ann);
    await other.close();
    const file = join(made, 'b.db');
    assert.equal(binder(['admin', '--store', join(made, 'other'), 'backup', file]).code, 0);

    const term = await startScreen(t, {
      prepare: async (store) => { await store.createList({ template: 'tasks' }, ann); },
      run: ['admin', '--store', '{store}', 'restore-backup', file],
      size: [200, 20],
    });
    const stderr = join(term.root, 'stderr');
    const said = (): string => (existsSync(stderr) ? readFileSync(stderr, 'utf8') : '');
    await until(() => said().includes('[y/N] '), 10_000, 'the question');
    assert.match(said(), /^Replace the binder in .* with the backup .*b\.db \(1 list, 1 record\)\? \[y\/N\] $/);
    term.literal(answer);
    term.keys('Enter');
    await until(() => term.exitCode() !== null, 10_000, 'the command to end');
    assert.equal(term.exitCode(), replaced ? '0' : '1', said());
    const shown = binder(['admin', '--store', join(term.root, 'store'), 'lists']).out;
    assert.equal(shown.includes('blank'), replaced, shown);
    assert.equal(shown.includes('tasks'), !replaced, shown);
    if (!replaced) assert.match(said(), /Nothing changed: run it again with --yes/);
  });
}
