/**
 * How `binder` writes its answer: every byte, in order, to a pipe read late; nothing but a quiet
 * end when the reader went away, whether its going says EPIPE or, on a socket it left with bytes
 * unread (the stdio an agent's harness gives a command it spawns), ECONNRESET.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../helpers/processes.js';

const OUTPUT = pathToFileURL(join(ROOT, 'build', 'src', 'keeper', 'output.js')).href;
const LINES = 3000;

/** A process writing LINES long lines through writeAll, then END; resolves with its exit. */
function writer(): ReturnType<typeof spawn> {
  const code = `import { writeAll } from ${JSON.stringify(OUTPUT)};
for (let i = 0; i < ${LINES}; i++) writeAll(1, 'line ' + i + ' ' + 'x'.repeat(300) + '\\n');
writeAll(1, 'END\\n');`;
  return spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'pipe'] });
}

const exited = (child: ReturnType<typeof spawn>): Promise<{ code: number | null; err: string }> => new Promise((done) => {
  let err = '';
  child.stderr?.on('data', (c) => { err += c; });
  child.on('close', (code) => done({ code, err }));
});

test('a long answer reaches a reader that reads late, whole and in order', async () => {
  const child = writer();
  const end = exited(child);
  child.stdout!.pause();
  // A reader that reads late is what is tested: it reads nothing for a while, the pipe fills meanwhile, and the writer must wait, not drop.
  await new Promise((r) => setTimeout(r, 300));
  let out = '';
  child.stdout!.on('data', (c) => { out += c; });
  child.stdout!.resume();
  const { code, err } = await end;
  assert.equal(code, 0, err);
  const lines = out.split('\n');
  assert.equal(lines.length, LINES + 2);
  for (let i = 0; i < LINES; i++) assert.ok(lines[i]!.startsWith(`line ${i} `), `line ${i} in its place`);
  assert.equal(lines[LINES], 'END');
});

test('a reader that goes away early ends nothing but the writing', async () => {
  const child = writer();
  const end = exited(child);
  child.stdout!.once('data', () => child.stdout!.destroy());
  const { code, err } = await end;
  assert.equal(code, 0, err);
  assert.equal(err, '');
});

/** Where the process sleeps in the kernel (Linux), or null where that cannot be read. */
function sleepsIn(pid: number): string | null {
  try {
    const at = readFileSync(`/proc/${pid}/wchan`, 'utf8').trim();
    return at === '' || at === '0' ? null : at;
  } catch {
    return null;
  }
}

test('a reader that goes away with bytes unread while the writer waits for room (ECONNRESET) ends nothing but the writing', async (t) => {
  const child = writer();
  const end = exited(child);
  // Read no more than a stream's first buffer: the pipe (a socket pair) fills, and the writer waits.
  child.stdout!.pause();
  const pid = child.pid!;
  let at = sleepsIn(pid);
  for (let looks = 0; at !== 'sock_alloc_send_pskb' && looks < 500; looks++) {
    await new Promise((r) => setTimeout(r, 10));
    at = sleepsIn(pid);
  }
  if (at !== 'sock_alloc_send_pskb') {
    child.kill();
    await end;
    t.skip(`this system does not say where a process waits (/proc/${pid}/wchan: ${at ?? 'unreadable'})`);
    return;
  }
  // Gone with bytes unread, as the writer waits: its write is told ECONNRESET, not EPIPE.
  child.stdout!.destroy();
  const { code, err } = await end;
  assert.equal(err, '', 'no stack');
  assert.equal(code, 0);
});
