/**
 * The web page in a real browser for the tests: Debian's Chromium driven by playwright-core (no
 * browser is ever downloaded; a missing Chromium fails the test, loudly), a fresh context per
 * browser asked for (chromium.ts: one Chromium for the run, or one of the test's own), a real
 * `binder serve --no-tui --http` process on a store of its own, an agent's folder asked through
 * with the real `binder`, axe-core run in the page through the DevTools
 * protocol (the page's CSP stays as it is), and screenshots saved under build/artefacts/page.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { chromium, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { ARGS, CHROMIUM } from './chromium.js';
import { BINDER, ROOT, binder, type Run } from '../helpers/processes.js';
import { tempDir, until } from '../helpers/temp.js';

export const ARTEFACTS = join(ROOT, 'build', 'artefacts', 'page');

/** Fails, never skips, where there is no Chromium: .ci/run installs Debian's. */
export function needChromium(): void {
  assert.ok(existsSync(CHROMIUM), `Chromium is not at ${CHROMIUM}: install Debian's chromium (apt-get install chromium) or set BINDER_CHROMIUM; the page's tests need a real browser.`);
}

export interface Server {
  url: string;
  port: number;
  store: string;
  /** The agent Claude's folder, registered by the person. */
  folder: string;
  out(): string;
  admin(...args: string[]): Run;
  /** The agent asks through its folder with the real `binder`. */
  agent(...args: string[]): Run;
  stop(): Promise<void>;
  start(): Promise<void>;
}

/** A store with an agent's folder registered, served by a real `binder serve --http`. */
export async function serve(t: TestContext, options: { port?: number; store?: string; args?: string[] } = {}): Promise<Server> {
  const root = tempDir(t, 'binder-page-');
  // A folder of its own, or a PostgreSQL database's URL (test/helpers/postgres.ts).
  const store = options.store ?? join(root, 'store');
  const folder = join(root, 'claude', '.binder');
  mkdirSync(folder, { recursive: true });
  const admin = (...args: string[]): Run => binder(['admin', '--store', store, '--as', 'Ann', ...args]);
  assert.equal(admin('side', 'add', folder, 'Claude').code, 0);
  let child: ChildProcess | null = null;
  let out = '';
  let port = options.port ?? 0;
  const server: Server = {
    url: '', port, store, folder,
    out: () => out,
    admin,
    agent: (...args) => binder(['--dir', folder, ...args]),
    async start() {
      out = '';
      // In the test's folder: a keeper of a store with no folder keeps `.binder` where it runs.
      const started = spawn(process.execPath, [BINDER, 'serve', '--no-tui', '--quiet', '--store', store, '--http', `127.0.0.1:${port}`, '--as', 'Ann', ...(options.args ?? [])],
        { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
      child = started;
      started.stdout!.on('data', (c) => { out += c; });
      started.stderr!.on('data', (c) => { out += c; });
      await until(() => /Stop with Ctrl-C/.test(out) || started.exitCode !== null, 15_000, 'the server to start');
      const url = /Answering on (http:\/\/[^ ]+) too/.exec(out)?.[1];
      assert.ok(url, `the server did not start: ${out}`);
      server.url = url;
      port = Number(new URL(url).port);
      server.port = port;
    },
    async stop() {
      const c = child;
      if (!c || c.exitCode !== null) return;
      const exited = new Promise((done) => c.once('exit', done));
      c.kill('SIGTERM');
      await exited;
    },
  };
  await server.start();
  t.after(async () => {
    const c = child;
    if (c && c.exitCode === null) {
      const exited = new Promise((done) => c.once('exit', done));
      c.kill('SIGKILL');
      await exited;
    }
  });
  return server;
}

/** The key of a login link made by `binder admin login-link`. */
export function loginLink(server: Server, as = 'Ann'): string {
  const made = binder(['admin', '--store', server.store, '--as', as, 'login-link']);
  assert.equal(made.code, 0, made.err);
  const link = made.out.split('\n')[0]!;
  assert.match(link, /#login=[A-Za-z0-9_-]{43}$/);
  return link;
}

/**
 * A browser of its own for the test, closed after it: a new context in the run's Chromium
 * (chromium.ts), or where the run started none, a Chromium with a new empty profile.
 */
export async function browser(t: TestContext, options: { width?: number; height?: number; dark?: boolean; phone?: boolean } = {}): Promise<BrowserContext> {
  needChromium();
  const shape: BrowserContextOptions = {
    viewport: { width: options.width ?? (options.phone ? 390 : 1400), height: options.height ?? (options.phone ? 844 : 900) },
    // A phone: Chromium's device emulation, touch and a mobile viewport (390×844 unless told).
    ...(options.phone ? { isMobile: true, hasTouch: true, deviceScaleFactor: 3 } : {}),
    colorScheme: options.dark ? 'dark' : 'light',
    locale: 'en-GB',
  };
  const shared = process.env.BINDER_TEST_BROWSER;
  if (shared) {
    // A connection of the test's own: one kept for the file would hold its process open after its last test.
    const connected = await chromium.connect(shared);
    const context = await connected.newContext(shape);
    t.after(async () => {
      await context.close();
      await connected.close();
    });
    return context;
  }
  const profile = mkdtempSync(join(tmpdir(), 'binder-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: ARGS, headless: true, ...shape });
  t.after(async () => {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  });
  return context;
}

/** A page that fails the test on any script error of its own. */
export async function newPage(context: BrowserContext): Promise<{ page: Page; errors: string[] }> {
  const page = context.pages()[0] ?? await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, errors };
}

/** An agent adds a record to `list` over REST with `token`, as agents do while a person looks; it must be done. */
export async function agentAdds(server: Server, token: string, list: string, title: string): Promise<void> {
  const res = await fetch(`${server.url}/api/add`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ list, title }) });
  assert.ok(((await res.json()) as { ok: boolean }).ok, `the agent's add of "${title}"`);
}

export async function signedIn(t: TestContext, server: Server, options: Parameters<typeof browser>[1] = {}): Promise<Page> {
  const context = await browser(t, options);
  const { page, errors } = await newPage(context);
  t.after(() => assert.deepEqual(errors, [], 'no script error on the page'));
  await page.goto(loginLink(server));
  await page.getByText('Signed in as Ann').waitFor({ state: 'attached', timeout: 10_000 });
  assert.doesNotMatch(page.url(), /login=/, 'the key left the address');
  return page;
}

export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTEFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTEFACTS, `${name}.png`), fullPage: true });
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeResult { violations: { id: string; impact: string | null; help: string; nodes: { target: unknown }[] }[] }

/**
 * axe-core's violations on the page as it is now, of every impact (minor and moderate too). axe is
 * evaluated through the DevTools protocol (page.evaluate), which the page's CSP does not govern: no
 * script tag is added, and the CSP is not weakened for the test.
 */
export async function axe(page: Page, view: string): Promise<void> {
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    const run = (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<unknown> } }).axe.run;
    return run(document, { resultTypes: ['violations'] });
  }) as AxeResult;
  assert.deepEqual(result.violations.map((v) => `${v.id} (${v.impact}): ${v.help} at ${JSON.stringify(v.nodes.slice(0, 3).map((n) => n.target))}`), [], `axe on ${view}`);
}

/** Waits for a condition on the page, with a timeout: never a fixed sleep. */
export const eventually = until;

/**
 * That the element with the focus holds text matching `expected`: the page gives the focus just
 * before its next frame, so a press is followed by a wait for that frame (up to 5 s), not a look
 * at once that a busy machine's late frame would fail.
 */
export async function focusHolds(page: Page, expected: RegExp, why?: string): Promise<void> {
  try {
    await page.waitForFunction(([source, flags]) => new RegExp(source!, flags).test(document.activeElement?.textContent ?? ''), [expected.source, expected.flags], { timeout: 5000 });
  } catch {
    assert.match(await page.evaluate(() => document.activeElement?.textContent ?? ''), expected, why);
  }
}
