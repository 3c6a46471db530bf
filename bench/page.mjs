// bench/page: the person's web page in Chromium (Debian's, driven by playwright-core) against a
// real `binder serve --http` on 10,000 records: the first view drawn after navigation (the first
// card on the board, stamped in the page by a MutationObserver added through the DevTools
// protocol) and on the screen (the frame after it), the page's script and style gzipped, and how
// soon an agent's change (a `binder move` through its folder, of a record the board shows) is on
// the page after its answer. Figures, never assertions.
//   node bench/page.mjs [--records 10000] [--rounds 15] [--changes 20] [--size desktop|phone] [--before DIR] [--json FILE]   (after npm run build)
// --before: an earlier checkout's folder (or its dist/bin/binder.js), built, measured in the same
// run on a store filled by that checkout's own bench/fill.mjs and served by its own keeper, in the
// same Chromium (its own tab, on 127.0.0.2 so that no cookie is shared): navigations and changes
// alternate between the builds (A B, then B A), and each ratio is taken within its round.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { ROOT, load, machine, median, option, percentile, round, tempDir } from './lib.mjs';

const RECORDS = Number(option('--records', '10000'));
const ROUNDS = Number(option('--rounds', '15'));
const CHANGES = Number(option('--changes', '20'));
const JSON_OUT = option('--json', '');
const BEFORE_OPTION = option('--before', '');
const BEFORE = BEFORE_OPTION.endsWith('.js') ? join(dirname(BEFORE_OPTION), '..', '..') : BEFORE_OPTION;
// desktop (1440×900) or phone (390×844, touch, Chromium's device emulation)
const SIZE = option('--size', 'desktop');
const VIEW = SIZE === 'phone'
  ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 }
  : { viewport: { width: 1440, height: 900 } };
const CHROMIUM = process.env.BINDER_CHROMIUM ?? '/usr/bin/chromium';

/**
 * A build (the checkout at `root`) ready to be looked at: a store of RECORDS records filled by
 * its own bench/fill.mjs, its own keeper answering on `host`, and a login link for it.
 */
async function serveBuild(name, root, host) {
  const dir = tempDir(`binder-bench-page-${name}-`);
  const store = join(dir, 'store');
  const folder = join(dir, 'agent', '.binder');
  const { fillStore, stateOf } = await import(pathToFileURL(join(root, 'bench', 'fill.mjs')).href);
  await fillStore(store, RECORDS, [folder]);
  const bin = join(root, 'dist', 'bin', 'binder.js');
  const child = spawn(process.execPath, [bin, 'serve', '--no-tui', '--quiet', '--store', store, '--http', `${host}:0`, '--as', 'bench'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (c) => { out += c; });
  process.on('exit', () => child.kill('SIGKILL'));
  const deadline = Date.now() + 60_000;
  while (!/Stop with Ctrl-C/.test(out)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the ${name} keeper did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const asked = spawnSync(process.execPath, [bin, 'admin', '--store', store, '--as', 'bench', 'login-link'], { encoding: 'utf8' });
  if (asked.status !== 0) throw new Error(`binder admin login-link (${name}): ${asked.stderr}`);
  // Records "To do" among the first of the board (record i + 1 was made in stateOf(i)), each moved
  // to Doing by the agent: it is then among the first 50 the page shows there.
  const toDo = [];
  for (let id = 1; toDo.length < CHANGES; id++) if (stateOf(id - 1) === 'To do') toDo.push(id);
  return {
    name, root, bin, folder, toDo, child,
    url: /Answering on (\S+) too/.exec(out)[1],
    link: asked.stdout.split('\n')[0],
    firstView: [], painted: [], seenAfter: [],
  };
}

const builds = [await serveBuild('now', ROOT, '127.0.0.1')];
if (BEFORE) builds.push(await serveBuild('before', BEFORE, '127.0.0.2'));

const profile = mkdtempSync(join(tmpdir(), 'binder-bench-chromium-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM, headless: true, ...VIEW,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
// Stamps, in the page, when the first card is drawn, when the frame after it has been (the
// browser has placed and painted it by then), and when a card with a title is: the clock is the
// page's own (ms since navigation), and the wall clock for a change told by another process.
await context.addInitScript(() => {
  const seen = (window.__binderSeen = {});
  new MutationObserver(() => {
    if (seen.first === undefined && document.querySelector('.card')) {
      seen.first = performance.now();
      requestAnimationFrame(() => setTimeout(() => { seen.painted = performance.now(); }, 0));
    }
    const wanted = window.__binderWanted;
    if (wanted && seen[wanted] === undefined) {
      for (const card of document.querySelectorAll('[data-state="doing"] .card')) {
        if (card.textContent.startsWith(`#${wanted} `)) {
          seen[wanted] = performance.timeOrigin + performance.now();
          break;
        }
      }
    }
  }).observe(document, { childList: true, subtree: true, characterData: true });
});
for (const [i, build] of builds.entries()) {
  build.page = (i === 0 && context.pages()[0]) || await context.newPage();
  await build.page.goto(build.link);
  await build.page.waitForSelector('.card', { timeout: 30_000 });
}
/** The builds in the order of round `i`: the one that goes first alternates. */
const inTurn = (i) => (i % 2 ? [...builds].reverse() : builds);

for (let i = 0; i < ROUNDS; i++) {
  for (const build of inTurn(i)) {
    // The tab looked at is the one in front, as a person's is: a browser holds back a hidden tab's frames.
    await build.page.bringToFront();
    await build.page.goto(`${build.url}/`);
    await build.page.waitForFunction(() => window.__binderSeen.painted !== undefined, null, { timeout: 30_000 });
    const { first, painted } = await build.page.evaluate(() => window.__binderSeen);
    build.firstView.push(first);
    build.painted.push(painted);
  }
}

for (let i = 0; i < CHANGES; i++) {
  for (const build of inTurn(i)) {
    const id = build.toDo[i];
    await build.page.bringToFront();
    await build.page.evaluate((n) => { window.__binderWanted = String(n); }, id);
    const asked = spawnSync(process.execPath, [build.bin, '--dir', build.folder, 'move', String(id), 'Doing'], { encoding: 'utf8' });
    const answered = Date.now();
    if (asked.status !== 0) throw new Error(`binder move (${build.name}): ${asked.stderr}`);
    await build.page.waitForFunction((n) => window.__binderSeen[n] !== undefined, String(id), { timeout: 10_000 });
    build.seenAfter.push(Math.max(0, (await build.page.evaluate((n) => window.__binderSeen[n], String(id))) - answered));
  }
}

await context.close();
rmSync(profile, { recursive: true, force: true });
await Promise.all(builds.map(({ child }) => new Promise((ok) => { child.on('exit', ok); child.kill('SIGTERM'); })));

const gz = (root, file) => gzipSync(readFileSync(join(root, 'dist', 'page', file)), { level: 9 }).length;
/** The page's script a first view loads: app.js and every file it imports, named in its text. */
function firstScript(root) {
  const files = new Set(['app.js']);
  for (const file of files) {
    for (const [, name] of readFileSync(join(root, 'dist', 'page', file), 'utf8').matchAll(/\bfrom\s*"\.\/([\w.-]+\.js)"/g)) files.add(name);
  }
  return [...files].reduce((sum, file) => sum + gz(root, file), 0);
}
const figures = (build) => ({
  firstView: { medianMs: round(median(build.firstView), 0), p90Ms: round(percentile(build.firstView, 90), 0), rounds: ROUNDS },
  painted: { medianMs: round(median(build.painted), 0), p90Ms: round(percentile(build.painted, 90), 0) },
  script: { gzipKb: round(firstScript(build.root) / 1024, 1), styleGzipKb: round(gz(build.root, 'app.css') / 1024, 1) },
  change: { medianMs: round(median(build.seenAfter), 0), p90Ms: round(percentile(build.seenAfter, 90), 0), changes: CHANGES },
});
const [now, before] = builds;
const result = { machine: machine(), records: RECORDS, size: SIZE, load: load(), ...figures(now) };
const verdict = (met) => (met ? 'met' : 'MISSED');
process.stdout.write(`The web page on ${result.machine}, ${RECORDS.toLocaleString('en')} records, ${SIZE === 'phone' ? 'a phone (390×844)' : 'a desktop (1440×900)'}, load ${result.load}\n`);
process.stdout.write(`first view drawn    ${result.firstView.medianMs} ms median, p90 ${result.firstView.p90Ms} ms (${ROUNDS} navigations)  ≤ 300 ms: ${verdict(result.firstView.medianMs <= 300)}\n`);
process.stdout.write(`  on the screen     ${result.painted.medianMs} ms median, p90 ${result.painted.p90Ms} ms (the frame after it)\n`);
process.stdout.write(`script gzipped      ${result.script.gzipKb} KB at the first view (style ${result.script.styleGzipKb} KB)  ≤ 150 KB: ${verdict(result.script.gzipKb <= 150)}\n`);
process.stdout.write(`a change seen       ${result.change.medianMs} ms median after its answer, p90 ${result.change.p90Ms} ms (${CHANGES} moves)  ≤ 200 ms: ${verdict(result.change.medianMs <= 200)}\n`);
if (before) {
  const earlier = figures(before);
  /** The median over rounds of now / before, each pair from the same round. */
  const ratio = (a, b) => round(median(a.map((x, i) => x / b[i])));
  result.before = { build: BEFORE, ...earlier };
  result.ratio = { firstView: ratio(now.firstView, before.firstView), painted: ratio(now.painted, before.painted), script: round(result.script.gzipKb / earlier.script.gzipKb), change: ratio(now.seenAfter, before.seenAfter) };
  const row = (what, a, b, r, unit) => process.stdout.write(`${what.padEnd(20)}${`${a} ${unit}`.padStart(10)}${`${b} ${unit}`.padStart(10)}${r.toFixed(2).padStart(8)}\n`);
  process.stdout.write(`\nbeside ${BEFORE} (rounds in turn; each ratio now / before within its round)\n${''.padEnd(20)}${'now'.padStart(10)}${'before'.padStart(10)}${'ratio'.padStart(8)}\n`);
  row('first view drawn', result.firstView.medianMs, earlier.firstView.medianMs, result.ratio.firstView, 'ms');
  row('  on the screen', result.painted.medianMs, earlier.painted.medianMs, result.ratio.painted, 'ms');
  row('script gzipped', result.script.gzipKb, earlier.script.gzipKb, result.ratio.script, 'KB');
  row('a change seen', result.change.medianMs, earlier.change.medianMs, result.ratio.change, 'ms');
}
if (JSON_OUT) writeFileSync(JSON_OUT, `${JSON.stringify(result, null, 2)}\n`);
process.exit(0);
