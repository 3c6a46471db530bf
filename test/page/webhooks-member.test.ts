/**
 * The webhooks' delivery log is an admin's, for people signed in through a provider: in Chromium,
 * against a real provider process (oauth2-mock-server) and a real receiver, the organisation's
 * admin is offered the panel and reads the hook there; a member is offered none, and the panel's
 * route, asked by the page itself, answers 403 with the store's sentence (in French for a page in
 * French), never a hook's address.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { hookReceiver } from '../helpers/hook-receiver.js';
import { provider, type Claims, type Provider } from '../helpers/oidc-provider.js';
import { axe, browser, newPage, serve, type Server } from './kit.js';

const ann: Claims = { sub: 'u-ann', name: 'Ann Lee', email: 'ann@acme.test', email_verified: true };
const bob: Claims = { sub: 'u-bob', name: 'Bob Roe', email: 'bob@acme.test', email_verified: true };

async function signIn(t: import('node:test').TestContext, server: Server, idp: Provider, who: Claims, role: 'admin' | 'member'): Promise<Page> {
  await idp.as(who);
  const { page } = await newPage(await browser(t));
  await page.goto(`${server.url}/`);
  await page.getByRole('link', { name: `Sign in with ${new URL(idp.issuer).host}` }).click();
  await page.getByText(`Signed in as ${who.name} <${who.email}> (${role})`).waitFor({ timeout: 15_000 });
  return page;
}

/** The panel's route, asked as the page asks it: with its half of the session, in `lang`. */
const webhooks = (page: Page, lang: 'en' | 'fr'): Promise<{ status: number; body: { ok: boolean; text: string; data: unknown } }> =>
  page.evaluate(async (lang) => {
    const res = await fetch('/page/webhooks', { headers: { 'binder-page-key': localStorage.getItem('binder-page-key') ?? '', 'binder-lang': lang } });
    return { status: res.status, body: await res.json() as { ok: boolean; text: string; data: unknown } };
  }, lang);

/** What changed, opened by its key: where an admin finds the webhooks. */
async function whatChanged(page: Page): Promise<void> {
  await page.keyboard.press('b');
  await page.getByRole('heading', { name: 'What changed since you last looked' }).waitFor();
}

test('a member signed in through a provider is offered no webhooks panel, and its route answers 403 with a sentence', { timeout: 120_000 }, async (t) => {
  const idp = await provider(t);
  const receiver = await hookReceiver(t);
  const server = await serve(t, { args: ['--oidc-issuer', idp.issuer, '--oidc-client-id', idp.clientId] });

  // Ann signs in first: the organisation's admin. She is offered the panel, and her binder's hook is in it.
  const a = await signIn(t, server, idp, ann, 'admin');
  // Made in acme's binder, the one its people sign in to.
  const made = server.admin('--org', 'acme.test', 'hook', 'add', receiver.url, '--events', 'noted');
  assert.equal(made.code, 0, made.err);
  const own = await webhooks(a, 'en');
  assert.equal(own.status, 200, own.body.text);
  await whatChanged(a);
  await a.getByRole('button', { name: 'Webhooks' }).click();
  await a.getByRole('region', { name: receiver.url }).waitFor();

  // Bob, same organisation, another browser: a member.
  const b = await signIn(t, server, idp, bob, 'member');
  await whatChanged(b);
  assert.equal(await b.getByRole('button', { name: 'Webhooks' }).count(), 0, 'no webhooks panel offered to a member');
  await axe(b, 'what changed, as a member');
  const refused = await webhooks(b, 'en');
  assert.equal(refused.status, 403);
  assert.equal(refused.body.ok, false);
  assert.equal(refused.body.data, null);
  assert.match(refused.body.text, /^Only an admin .*see the webhooks/);
  const french = await webhooks(b, 'fr');
  assert.equal(french.status, 403);
  assert.match(french.body.text, /voir les crochets web/);
  assert.ok(![refused.body.text, french.body.text].some((text) => text.includes(receiver.url)), 'no hook named to a member');
  assert.ok(!(await b.content()).includes(receiver.url), 'nor on the member\'s page');
});
