// One agent for bench/keeper.mjs: appends asks to its folder and times each answer, from the
// moment its line is appended to the moment the answer line is seen (file events, like `binder`).
//   node keeper-agent.mjs DIR MODE COUNT [BATCH] [LIST]
//   MODE latency: one ask at a time, waiting for each answer; prints the latencies (ms) as JSON.
//   MODE burst:   COUNT asks written BATCH at a time without waiting; prints total ms as JSON.
import { appendFileSync, closeSync, openSync, readSync, statSync, watch } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';

const [dir, mode, countText, batchText, listText] = process.argv.slice(2);
const count = Number(countText);
const batch = Number(batchText || 100);
const list = listText || 'bench';
const asks = join(dir, 'asks.jsonl');
const answersPath = join(dir, 'answers.jsonl');
let offset = 0;
try { offset = statSync(answersPath).size; } catch { /* none yet */ }
const waiting = new Map();
let wake = () => {};
const watcher = watch(dir, () => wake());
const timer = setInterval(() => wake(), 100);

function readAnswers() {
  let fd;
  try { fd = openSync(answersPath, 'r'); } catch { return; }
  try {
    const size = statSync(answersPath).size;
    if (size < offset) offset = 0;
    while (offset < size) {
      const buf = Buffer.alloc(Math.min(size - offset, 1 << 20));
      const n = readSync(fd, buf, 0, buf.length, offset);
      const text = buf.subarray(0, n).toString('utf8');
      const end = text.lastIndexOf('\n');
      if (end < 0) break;
      offset += Buffer.byteLength(text.slice(0, end + 1));
      for (const line of text.slice(0, end).split('\n')) {
        const at = line.indexOf('"ask":"');
        if (at < 0) continue;
        const id = line.slice(at + 7, at + 43);
        const done = waiting.get(id);
        if (done) { waiting.delete(id); done(performance.now()); }
      }
    }
  } finally { closeSync(fd); }
}

const ask = (op, args) => {
  const id = randomUUID();
  const answered = new Promise((done) => waiting.set(id, done));
  return { line: `${JSON.stringify({ id, at: new Date().toISOString(), op, args })}\n`, answered };
};

const ops = [
  ['add', { list, title: 'a record made by the bench' }],
  ['show', { list }],
  ['note', { id: 1, text: 'a note from the bench' }],
];

if (mode === 'latency') {
  const out = [];
  for (let i = 0; i < count; i++) {
    const [op, args] = ops[i % ops.length];
    const a = ask(op, args);
    const t0 = performance.now();
    appendFileSync(asks, a.line);
    wake = readAnswers;
    readAnswers();
    out.push((await a.answered) - t0);
  }
  process.stdout.write(JSON.stringify(out));
} else {
  wake = readAnswers;
  const all = [];
  const t0 = performance.now();
  for (let i = 0; i < count; i += batch) {
    let lines = '';
    for (let j = i; j < Math.min(count, i + batch); j++) { const a = ask('add', { list, title: `burst ${j}` }); lines += a.line; all.push(a.answered); }
    appendFileSync(asks, lines);
  }
  await Promise.all(all);
  process.stdout.write(JSON.stringify(performance.now() - t0));
}
watcher.close();
clearInterval(timer);
