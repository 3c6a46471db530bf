// bench/tui: how fast the screen is on large binders. Time to first frame at 10,000 records
// (in process: opening the store to the first frame; and the real `binder tui` in tmux: spawn to
// the board on screen), and key-to-frame at 100,000 records in one list (median and p95 of
// repeated presses: down the board, deep in a column, down a table, page by page). A benchmark,
// not a test: it prints figures and asserts nothing.
//   npm run build && node bench/tui.mjs [--records-small N] [--records-large N] [--presses N]
import { spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fill, LIST } from './fill.mjs';
import { BINDER, ROOT, machine, median, percentile, round, tempDir } from './lib.mjs';

const arg = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const SMALL = arg('--records-small', 10_000);
const LARGE = arg('--records-large', 100_000);
const PRESSES = arg('--presses', 200);

const load = (path) => import(pathToFileURL(join(ROOT, 'build', 'src', path)).href);
process.env.NODE_ENV = 'production';
const React = await import('react');
const { render } = await import('ink');
const { openStore } = await load('store/index.js');
const { createKeeper } = await load('keeper/keeper.js');
const { App } = await load('tui/components/App.js');
const { Binder } = await load('tui/context.js');
const { makeTheme } = await load('tui/theme.js');
const { wordsFor } = await load('person/words.js');

const PERSON = { id: 'person:bench', kind: 'person', name: 'bench' };
const KEY = { down: '\u001b[B', up: '\u001b[A', pageDown: '\u001b[6~', end: '\u001b[F', enter: '\r' };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A terminal of 120×40 that keeps nothing but the last frame. */
class Out extends EventEmitter {
  columns = 120;
  rows = 40;
  isTTY = false;
  last = '';
  write(text) { this.last = text; return true; }
}
class In extends EventEmitter {
  isTTY = true;
  data = null;
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
  read = () => { const d = this.data; this.data = null; return d; };
  press(key) { this.data = key; this.emit('readable'); this.emit('data', key); }
}

/** The screen on `storeDir`, in this process; resolves once its first frame is rendered. */
async function screen(storeDir) {
  const started = performance.now();
  const store = openStore(storeDir);
  const keeper = createKeeper({ store, sides: [], log: () => {} });
  const context = {
    keeper, person: PERSON, words: wordsFor('en'), theme: makeTheme({}), now: Date.now,
    firstSide: () => null, pollMs: 500, dueMs: 3000, onDiagnostic: () => () => {},
  };
  const stdout = new Out();
  const stdin = new In();
  let frames = 0;
  let waiting = null;
  const ink = render(React.createElement(Binder.Provider, { value: context }, React.createElement(App)), {
    stdout, stdin, stderr: new Out(), exitOnCtrlC: false, patchConsole: false,
    onRender: () => {
      // A frame with nothing drawn (the screen waits for its first reads) is not the first frame.
      if (!stdout.last.trim()) return;
      frames++;
      if (waiting) { const w = waiting; waiting = null; w(performance.now()); }
    },
  });
  while (frames === 0) await sleep(1);
  const firstFrame = performance.now() - started;
  /** ms from a key to the frame it made; spaced so that Ink's 30 fps throttle never holds a frame back. */
  const press = async (key) => {
    await sleep(40);
    const frame = new Promise((r) => { waiting = r; });
    const at = performance.now();
    stdin.press(key);
    const done = await Promise.race([frame, sleep(2000).then(() => NaN)]);
    return done - at;
  };
  const close = async () => { ink.unmount(); await keeper.close(); await store.close(); };
  return { store, stdout, press, close, firstFrame };
}

async function presses(s, key, n) {
  const times = [];
  for (let i = 0; i < n; i++) times.push(await s.press(key));
  const kept = times.filter((x) => !Number.isNaN(x));
  return { median: round(median(kept)), p95: round(percentile(kept, 95)), n: kept.length };
}

/** Waits `ms` without giving up the thread (the tmux look below is synchronous). */
const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Spawns `command` in a fresh 120×40 tmux pane, 5 times: ms until `#1 ` is on screen (median).
 * The pane is looked at every 10 ms rather than in a busy loop: on a two-core machine a loop of
 * tmux calls takes the processor from the very command it waits for.
 */
function untilOnScreen(command) {
  const socket = `binder-bench-${process.pid}`;
  const tmux = (...a) => spawnSync('tmux', ['-L', socket, '-f', '/dev/null', ...a], { encoding: 'utf8' }).stdout ?? '';
  const times = [];
  for (let round = 0; round < 5; round++) {
    const started = performance.now();
    tmux('new-session', '-d', '-x', '120', '-y', '40', '-s', 'b', command);
    let seen = NaN;
    while (performance.now() - started < 20_000) {
      if (tmux('capture-pane', '-p', '-t', 'b').includes('#1 ')) { seen = performance.now() - started; break; }
      pause(10);
    }
    tmux('kill-server');
    times.push(seen);
  }
  return { median: round(median(times)), runs: times.length };
}

/** The real command in tmux: spawn to the board on screen; and node alone printing there, for scale. */
function firstFrameInTmux(storeDir, work) {
  if (spawnSync('tmux', ['-V']).status !== 0) return null;
  const tui = untilOnScreen(`cd '${work}' && env -u CI '${process.execPath}' '${BINDER}' tui --store '${storeDir}' --side '${join(work, '.binder')}=Agent'`);
  const node = untilOnScreen(`'${process.execPath}' -e "process.stdout.write('#1 x')"; sleep 5`);
  return { ...tui, node };
}

const dir = tempDir('binder-bench-tui-');
const work = join(dir, 'work');
mkdirSync(work, { recursive: true });
console.log(`bench/tui on ${machine()}`);

let t = performance.now();
const small = await fill(join(dir, 'small'), SMALL);
console.log(`filled ${SMALL} records in ${round((performance.now() - t) / 1000, 1)} s`);
const s1 = await screen(small.storeDir);
console.log(`first frame, ${SMALL} records, in process (open the store → first frame): ${round(s1.firstFrame)} ms`);
await s1.close();
const inTmux = existsSync(BINDER) ? firstFrameInTmux(small.storeDir, work) : null;
console.log(inTmux ? `first frame, ${SMALL} records, real binder tui in tmux (spawn → board on screen): median ${inTmux.median} ms of ${inTmux.runs}` : 'first frame in tmux: skipped (no tmux or no dist/bin/binder.js)');
if (inTmux) console.log(`  for scale, node alone printing in the same pane (spawn → text on screen): median ${inTmux.node.median} ms of ${inTmux.node.runs}`);

t = performance.now();
const large = await fill(join(dir, 'large'), LARGE);
console.log(`filled ${LARGE} records in ${round((performance.now() - t) / 1000, 1)} s`);
const s2 = await screen(large.storeDir);
console.log(`first frame, ${LARGE} records, in process: ${round(s2.firstFrame)} ms`);
await s2.press(KEY.enter);
const rows = {};
rows['board: ↓ from the top'] = await presses(s2, KEY.down, PRESSES);
await s2.press(KEY.end);
rows['board: ↑ from the bottom of a column (deep offsets)'] = await presses(s2, KEY.up, PRESSES);
rows['board: PgDn'] = await presses(s2, KEY.pageDown, Math.min(PRESSES, 50));
await s2.store.editList(LIST, { view: 'table' }, PERSON);
await sleep(700);
rows['table: ↓'] = await presses(s2, KEY.down, PRESSES);
rows['table: PgDn'] = await presses(s2, KEY.pageDown, Math.min(PRESSES, 50));
await s2.press(KEY.end);
rows['table: ↑ at the end (deep offsets)'] = await presses(s2, KEY.up, PRESSES);
await s2.close();

console.log(`key to frame, ${LARGE} records in one list (ms):`);
for (const [name, r] of Object.entries(rows)) console.log(`  ${name.padEnd(52)} median ${r.median}  p95 ${r.p95}  (${r.n} presses)`);
