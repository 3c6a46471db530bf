// bench/page: the person's web page in Chromium (Debian's, driven by playwright-core) against a
// real `binder serve --http` on 10,000 records: the first view drawn after navigation (the first
// card on the board, stamped in the page by a MutationObserver added through the DevTools
// protocol), the page's script and style gzipped, and how soon an agent's change (a `binder move`
// through its folder, of a record the board shows) is on the page after its answer. Figures,
// never assertions.
//   node bench/page.mjs [--records 10000] [--rounds 15] [--changes 20] [--size desktop|phone] [--json FILE]   (after npm run build)
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { fillStore, stateOf } from './fill.mjs';
import { BINDER, ROOT, admin, load, machine, median, option, percentile, round, tempDir } from './lib.mjs';

const RECORDS = Number(option('--records', '10000'));
const ROUNDS = Number(option('--rounds', '15'));
const CHANGES = Number(option('--changes', '20'));
const JSON_OUT = option('--json', '');
// desktop (1440×900) or phone (390×844, touch, Chromium's device emulation)
const SIZE = option('--size', 'desktop');
const VIEW = SIZE === 'phone'
  ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 }
  : { viewport: { width: 1440, height: 900 } };
const CHROMIUM = process.env.BINDER_CHROMIUM ?? '/usr/bin/chromium';

const dir = tempDir('binder-bench-page-');
const store = join(dir, 'store');
const folder = join(dir, 'agent', '.binder');
await fillStore(store, RECORDS, [folder]);

const child = spawn(process.execPath, [BINDER, 'serve', '--no-tui', '--quiet', '--store', store, '--http', '127.0.0.1:0', '--as', 'bench'], { stdio: ['ignore', 'pipe', 'inherit'] });
let out = '';
child.stdout.on('data', (c) => { out += c; });
process.on('exit', () => child.kill('SIGKILL'));
while (!/Stop with Ctrl-C/.test(out)) await new Promise((r) => setTimeout(r, 20));
const url = /Answering on (\S+) too/.exec(out)[1];
const link = admin(store, 'login-link').split('\n')[0];

const profile = mkdtempSync(join(tmpdir(), 'binder-bench-chromium-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM, headless: true, ...VIEW,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
// Stamps, in the page, when the first card is drawn and when a card with a title is: the clock is
// the page's own (ms since navigation), and the wall clock for a change told by another process.
await context.addInitScript(() => {
  const seen = (window.__binderSeen = {});
  new MutationObserver(() => {
    if (seen.first === undefined && document.querySelector('.card')) seen.first = performance.now();
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
const page = context.pages()[0] ?? await context.newPage();
await page.goto(link);
await page.waitForSelector('.card', { timeout: 30_000 });

const firstView = [];
for (let i = 0; i < ROUNDS; i++) {
  await page.goto(`${url}/`);
  await page.waitForSelector('.card', { timeout: 30_000 });
  firstView.push(await page.evaluate(() => window.__binderSeen.first));
}

// Records "To do" among the first of the board (record i + 1 was made in stateOf(i)), each moved
// to Doing by the agent: it is then among the first 50 the page shows there.
const toDo = [];
for (let id = 1; toDo.length < CHANGES; id++) if (stateOf(id - 1) === 'To do') toDo.push(id);
const seenAfter = [];
for (const id of toDo) {
  await page.evaluate((n) => { window.__binderWanted = String(n); }, id);
  const asked = spawnSync(process.execPath, [BINDER, '--dir', folder, 'move', String(id), 'Doing'], { encoding: 'utf8' });
  const answered = Date.now();
  if (asked.status !== 0) throw new Error(`binder move: ${asked.stderr}`);
  await page.waitForFunction((n) => window.__binderSeen[n] !== undefined, String(id), { timeout: 10_000 });
  seenAfter.push(Math.max(0, (await page.evaluate((n) => window.__binderSeen[n], String(id))) - answered));
}

await context.close();
rmSync(profile, { recursive: true, force: true });
await new Promise((ok) => { child.on('exit', ok); child.kill('SIGTERM'); });

const gz = (file) => gzipSync(readFileSync(join(ROOT, 'dist', 'page', file)), { level: 9 }).length;
const result = {
  machine: machine(), records: RECORDS, size: SIZE, load: load(),
  firstView: { medianMs: round(median(firstView), 0), p90Ms: round(percentile(firstView, 90), 0), rounds: ROUNDS },
  script: { gzipKb: round(gz('app.js') / 1024, 1), styleGzipKb: round(gz('app.css') / 1024, 1) },
  change: { medianMs: round(median(seenAfter), 0), p90Ms: round(percentile(seenAfter, 90), 0), changes: CHANGES },
};
const verdict = (met) => (met ? 'met' : 'MISSED');
process.stdout.write(`The web page on ${result.machine}, ${RECORDS.toLocaleString('en')} records, ${SIZE === 'phone' ? 'a phone (390×844)' : 'a desktop (1440×900)'}, load ${result.load}\n`);
process.stdout.write(`first view drawn    ${result.firstView.medianMs} ms median, p90 ${result.firstView.p90Ms} ms (${ROUNDS} navigations)  ≤ 300 ms: ${verdict(result.firstView.medianMs <= 300)}\n`);
process.stdout.write(`script gzipped      ${result.script.gzipKb} KB (style ${result.script.styleGzipKb} KB)  ≤ 150 KB: ${verdict(result.script.gzipKb <= 150)}\n`);
process.stdout.write(`a change seen       ${result.change.medianMs} ms median after its answer, p90 ${result.change.p90Ms} ms (${CHANGES} moves)  ≤ 200 ms: ${verdict(result.change.medianMs <= 200)}\n`);
if (JSON_OUT) writeFileSync(JSON_OUT, `${JSON.stringify(result, null, 2)}\n`);
process.exit(0);
