#!/usr/bin/env node
// Run by the build, never by a person: makes the screen's code cache (dist/bin/binder-tui-main.js.cache)
// by starting `binder tui` once, in this process, on a small binder made for it in a temporary
// folder, as if on a 120×40 terminal, and leaving at its first frame. The cache then holds what
// the first frame runs and nothing after it. It writes nowhere else, and never in a real store.
//   node scripts/warm-screen.mjs [BIN]      (BIN: the built commands' folder, dist/bin by default)
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = process.argv[2] ?? join(root, 'dist', 'bin');
const dir = mkdtempSync(join(tmpdir(), 'binder-warm-screen-'));
process.once('exit', () => rmSync(dir, { recursive: true, force: true }));

// A list with a few records, so that the board is what the first frame draws.
const { openStore } = await import(pathToFileURL(join(root, 'build', 'src', 'store', 'index.js')).href);
const who = { id: 'person:build', kind: 'person', name: 'build' };
const store = openStore(join(dir, 'store'));
try {
  const list = await store.createList({ template: 'tasks' }, who);
  for (let i = 1; i <= 12; i++) await store.add(list.id, { title: `record ${i}` }, who);
} finally {
  await store.close();
}

// A terminal of 256 colours as the screen sees one; what it draws goes nowhere (stdout is not read).
process.env.FORCE_COLOR = '2';
Object.assign(process.stdin, { isTTY: true, setRawMode() { return process.stdin; } });
Object.assign(process.stdout, { isTTY: true, columns: 120, rows: 40 });
const write = process.stdout.write;
process.stdout.write = function first(chunk, ...rest) {
  // The starter writes the cache as the process exits: at the first frame, before anything after it runs.
  if (String(chunk).includes('#1 ')) process.exit(0);
  return write.call(this, chunk, ...rest);
};
const screen = createRequire(import.meta.url)(join(bin, 'binder-tui.js'));
process.exitCode = await screen.main(['--store', join(dir, 'store'), '--side', `${join(dir, 'side')}=Agent`, '--as', 'build']);
