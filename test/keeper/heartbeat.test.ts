/** The heartbeat: written whole by rename, never through a link; read back only from a small regular file. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync, execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readHeartbeat, writeHeartbeat } from '../../src/keeper/heartbeat.js';
import { FolderProblem } from '../../src/keeper/folder-files.js';
import { openFolder } from '../../src/keeper/folder-bind.js';

/** Writes the heartbeat as the keeper does, through the folder opened for a pass. */
function beat(dir: string, now: number, stopped: boolean): void {
  const open = openFolder({ dir, key: null, name: 'A', registered: false });
  try {
    writeHeartbeat(open, now, stopped);
  } finally {
    open.close();
  }
}
import { HEARTBEAT_FILE, HEARTBEAT_MS, heartbeatSaysNobody } from '../../src/keeper/protocol.js';
import { VERSION } from '../../src/version.js';
import { tempDir } from '../helpers/temp.js';

const NOW = Date.parse('2030-03-04T05:06:07.000Z');

test('a heartbeat says who keeps the folder, when, how often, and whether it stopped', (t) => {
  const dir = tempDir(t, 'binder-beat-');
  beat(dir, NOW, false);
  const raw = JSON.parse(readFileSync(join(dir, HEARTBEAT_FILE), 'utf8'));
  assert.deepEqual(raw, { keeper: 'binder', version: VERSION, beat: new Date(NOW).toISOString(), every: HEARTBEAT_MS, stopped: false });
  assert.deepEqual(readHeartbeat(dir), raw);
  assert.equal(heartbeatSaysNobody(readHeartbeat(dir), NOW + HEARTBEAT_MS), false);
  assert.equal(heartbeatSaysNobody(readHeartbeat(dir), NOW + HEARTBEAT_MS * 4), true, 'an old beat means nobody');
  beat(dir, NOW, true);
  assert.equal(readHeartbeat(dir)!.stopped, true);
  assert.deepEqual(readdirSync(dir), [HEARTBEAT_FILE], 'no temporary file left');
});

test('a heartbeat replaces a link in its place instead of writing through it', (t) => {
  const dir = tempDir(t, 'binder-beat-');
  const outside = join(dir, 'outside.txt');
  writeFileSync(outside, 'mine\n');
  mkdirSync(join(dir, 'folder'));
  symlinkSync(outside, join(dir, 'folder', HEARTBEAT_FILE));
  assert.equal(readHeartbeat(join(dir, 'folder')), null, 'a link is not read');
  beat(join(dir, 'folder'), NOW, false);
  assert.equal(readFileSync(outside, 'utf8'), 'mine\n');
  assert.ok(lstatSync(join(dir, 'folder', HEARTBEAT_FILE)).isFile());
  assert.equal(readHeartbeat(join(dir, 'folder'))!.beat, new Date(NOW).toISOString());
});

test('a directory in the heartbeat\'s place is a problem said, not a crash', (t) => {
  const dir = tempDir(t, 'binder-beat-');
  mkdirSync(join(dir, HEARTBEAT_FILE));
  assert.throws(() => beat(dir, NOW, false), (e: unknown) => e instanceof FolderProblem && /cannot be replaced/.test(e.message));
  assert.deepEqual(readdirSync(dir), [HEARTBEAT_FILE], 'no temporary file left');
  assert.equal(readHeartbeat(dir), null);
});

test('garbage, another program\'s file or a huge one read as no heartbeat', (t) => {
  const dir = tempDir(t, 'binder-beat-');
  const path = join(dir, HEARTBEAT_FILE);
  for (const text of ['', 'not json', '[1]', '{"keeper":"other","version":"1","beat":"2030-01-01T00:00:00Z","every":5000,"stopped":false}',
    '{"keeper":"binder","version":"1","beat":"never","every":5000,"stopped":false}',
    '{"keeper":"binder","version":"1","beat":"2030-01-01T00:00:00Z","every":-1,"stopped":false}',
    `{"keeper":"binder","version":"1","beat":"2030-01-01T00:00:00Z","every":5000,"stopped":false,"pad":"${'x'.repeat(5000)}"}`]) {
    writeFileSync(path, text);
    assert.equal(readHeartbeat(dir), null, text.slice(0, 60));
  }
  assert.equal(readHeartbeat(join(dir, 'absent')), null);
});

test('a FIFO in the heartbeat\'s place is read as none, without waiting on it', (t) => {
  const dir = tempDir(t, 'binder-beat-');
  execFileSync('mkfifo', [join(dir, HEARTBEAT_FILE)]);
  // In a child process: a reader that blocked would be stopped at the time limit, not hang the tests.
  const module = new URL('../../src/keeper/heartbeat.js', import.meta.url).href;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e',
    `import { readHeartbeat } from ${JSON.stringify(module)}; process.stdout.write(JSON.stringify(readHeartbeat(${JSON.stringify(dir)})));`],
  { encoding: 'utf8', timeout: 10_000 });
  assert.equal(run.signal, null, 'the reader blocked on the FIFO');
  assert.equal(run.stdout, 'null', run.stderr);
});
