/**
 * Debian's Chromium for the page's tests, driven by playwright-core (no browser is ever
 * downloaded). The test run (scripts/test.mjs) starts one for all the page's test files and says
 * where in BINDER_TEST_BROWSER: each test then opens a context of its own in it, which shares no
 * cookie, storage or cache with any other. Measured here, a launch and its first page took 1.3 s;
 * a connection, a context and its page 0.46 s. Run alone (`node --test` on one file), a test
 * launches its own.
 */
import { chromium, type BrowserServer } from 'playwright-core';

export const CHROMIUM = process.env.BINDER_CHROMIUM ?? '/usr/bin/chromium';
export const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** The run's one Chromium, its address kept in BINDER_TEST_BROWSER by the caller. */
export function launchShared(): Promise<BrowserServer> {
  return chromium.launchServer({ executablePath: CHROMIUM, args: ARGS, headless: true });
}
