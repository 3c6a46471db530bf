/**
 * The man pages the build writes from the commands' own command lines: `man -l` renders each
 * without a warning, and they hold every agent verb, binder admin's commands and the MCP tools.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AGENT_OPERATIONS } from '../../src/keeper/operations.js';

const MAN = fileURLToPath(new URL('../../../dist/man/man1/', import.meta.url));

function render(page: string): { text: string; warnings: string } {
  const r = spawnSync('man', ['-l', join(MAN, page)], {
    encoding: 'utf8', env: { ...process.env, MANPAGER: 'cat', PAGER: 'cat', MANWIDTH: '100', MANROFFOPT: '-ww' },
  });
  assert.equal(r.status, 0, r.stderr);
  return { text: r.stdout.replace(/.\x08/g, ''), warnings: r.stderr };
}

test('binder(1): every agent verb with its arguments and example, the exit codes', () => {
  const { text, warnings } = render('binder.1');
  assert.equal(warnings, '');
  assert.match(text, /^NAME\n\s+binder +- lists of records/m);
  for (const op of AGENT_OPERATIONS) assert.match(text, new RegExp(`^\\s+binder ${op.name}\\b`, 'm'), op.name);
  assert.match(text, /binder move <ID> <STATE>/);
  assert.match(text, /Example: binder show Tasks --query "owner:me due<2026-12-10"/);
  assert.match(text.replace(/\s+/g, ' '), /75 not known whether it was done/);
});

test('binder-admin(1) and binder-mcp(1): a person\'s commands, the MCP tools', () => {
  const admin = render('binder-admin.1');
  assert.equal(admin.warnings, '');
  for (const words of ['binder admin approve <ID>', 'binder admin side add <FOLDER>', 'binder admin grant <LIST> <AGENT> <ACCESS>', 'binder admin export', 'binder admin config', 'binder admin sessions']) {
    assert.ok(admin.text.includes(words), words);
  }
  assert.match(admin.text, /config\.toml/);
  const mcp = render('binder-mcp.1');
  assert.equal(mcp.warnings, '');
  for (const op of AGENT_OPERATIONS) assert.match(mcp.text, new RegExp(`^\\s+${op.name}\\b`, 'm'), op.name);
});
