/**
 * Signing in through a provider in a real browser (Chromium), against a real provider process on
 * loopback (oauth2-mock-server, whose next sign-in is the person the test chooses), on both
 * stores: the page offers "Sign in with <provider>" and no login link; the browser goes to the
 * provider and back, signed in as the person, with their e-mail; sign-out ends it and says where
 * to sign out of the provider; a second person signs in from another browser.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { provider } from '../helpers/oidc-provider.js';
import { cluster, dropDatabase, postgresMissing } from '../helpers/postgres.js';
import { browser, newPage, serve, shot } from './kit.js';

async function story(t: TestContext, engine: 'sqlite' | 'postgres'): Promise<void> {
  const idp = await provider(t);
  let store: string | undefined;
  const c = engine === 'postgres' ? await cluster() : null;
  if (c) store = c.database();
  const server = await serve(t, { ...(store ? { store } : {}), args: ['--oidc-issuer', idp.issuer, '--oidc-client-id', idp.clientId] });
  // After the keeper's end (hooks run in the order they are added): a database dropped under a
  // keeper that connects again and again waits for it, and the test with it.
  if (c) t.after(() => dropDatabase(c, store!));
  const host = new URL(idp.issuer).host;
  assert.match(server.out(), new RegExp(`people sign in with ${host} there; no login links`));

  const first = await newPage(await browser(t));
  const page = first.page;
  await page.goto(`${server.url}/`);
  const signIn = page.getByRole('link', { name: `Sign in with ${host}` });
  await signIn.waitFor({ timeout: 10_000 });
  assert.equal(await page.getByText('login-link').count(), 0, 'no word of login links');
  await signIn.click();
  // The callback's own page says "Signed in as …" too, then sends the browser on: the page's words
  // count only once the browser is back on the page.
  await page.waitForURL((at) => at.pathname === '/', { timeout: 30_000 });
  await page.getByText('Signed in as Ann Lee <ann@acme.test>').waitFor({ timeout: 30_000 });
  assert.equal(new URL(page.url()).pathname, '/', 'back on the page');
  assert.doesNotMatch(page.url(), /code=|state=/, 'nothing of the provider\'s answer stays in the address');
  await shot(page, `oidc-signed-in-${engine}`);

  const key = await page.evaluate(() => localStorage.getItem('binder-page-key'));
  assert.match(key ?? '', /^[A-Za-z0-9_-]{21}$/, 'the page keeps its half of the session, out of the address');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByText('Signed out of this binder.').waitFor({ timeout: 10_000 });
  assert.match(await page.getByRole('link', { name: `Sign out of ${host} too` }).getAttribute('href') ?? '', new RegExp(`^${idp.issuer}/endsession\\?`));
  await page.getByRole('link', { name: `Sign in with ${host}` }).waitFor();
  assert.equal(await page.evaluate(() => localStorage.getItem('binder-page-key')), null, 'the page forgot its half');
  const gone = await page.evaluate(async (half) => (await fetch('/page/api/lists', { headers: { 'binder-page-key': half! } })).status, key);
  assert.equal(gone, 401, 'the session ended');

  // A second person, from another browser.
  await idp.as({ sub: 'u-bob', name: 'Bob Roe', email: 'bob@acme.test', email_verified: true });
  const second = await newPage(await browser(t));
  await second.page.goto(`${server.url}/`);
  await second.page.getByRole('link', { name: `Sign in with ${host}` }).click();
  await second.page.waitForURL((at) => at.pathname === '/', { timeout: 30_000 });
  await second.page.getByText('Signed in as Bob Roe <bob@acme.test>').waitFor({ timeout: 30_000 });
  assert.deepEqual([...first.errors, ...second.errors], [], 'no script error on the pages');
}

test('a person signs in through the provider in Chromium, signs out, and another signs in [sqlite]', { timeout: 120_000 }, (t) => story(t, 'sqlite'));
test('a person signs in through the provider in Chromium, signs out, and another signs in [postgres]',
  { timeout: 120_000, ...(postgresMissing() ? { skip: postgresMissing()! } : {}) }, (t) => story(t, 'postgres'));
