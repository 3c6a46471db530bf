/**
 * People and roles on the page, in Chromium, against a real provider process, on both stores: the
 * first to sign in is the organisation's admin (the page says so), the second a member who sees
 * no admin action and is refused one forced through the page's API; an admin promotes, demotes
 * herself, the last admin cannot be demoted (the store's sentence on the page), a removed person's
 * session ends and her history stays; a second organisation sees nothing of the first's and
 * becomes admin of its own.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { provider, type Claims, type Provider } from '../helpers/oidc-provider.js';
import { cluster, dropDatabase, postgresMissing } from '../helpers/postgres.js';
import { axe, browser, newPage, serve, shot, type Server } from './kit.js';

const ann: Claims = { sub: 'u-ann', name: 'Ann Lee', email: 'ann@acme.test', email_verified: true };
const bob: Claims = { sub: 'u-bob', name: 'Bob Roe', email: 'bob@acme.test', email_verified: true };
const zed: Claims = { sub: 'u-zed', name: 'Zed Kay', email: 'zed@other.test', email_verified: true };

interface Api { status: number; body: { ok: boolean; text: string; data: unknown } }

/** The page's own API, called from the page as the person (a forced call, past what the page offers). */
const api = (page: Page, op: string, args?: Record<string, unknown>): Promise<Api> => page.evaluate(async ([op, args]) => {
  // As the page sends it: with its half of the session, kept in this origin's storage.
  const key = { 'binder-page-key': localStorage.getItem('binder-page-key') ?? '' };
  const res = args === null
    ? await fetch(`/page/api/${op}`, { headers: key })
    : await fetch(`/page/api/${op}`, { method: 'POST', headers: { 'content-type': 'application/json', ...key }, body: JSON.stringify(args) });
  return { status: res.status, body: await res.json() as Api['body'] };
}, [op, args ?? null] as const);

async function signIn(t: TestContext, server: Server, idp: Provider, who: Claims, role: 'admin' | 'member'): Promise<{ page: Page; errors: string[] }> {
  await idp.as(who);
  const opened = await newPage(await browser(t));
  await opened.page.goto(`${server.url}/`);
  await opened.page.getByRole('link', { name: `Sign in with ${new URL(idp.issuer).host}` }).click();
  await opened.page.getByText(`Signed in as ${who.name} <${who.email}> (${role})`).waitFor({ timeout: 15_000 });
  return opened;
}

const people = async (page: Page): Promise<void> => {
  await page.getByRole('navigation').getByRole('button', { name: 'People' }).click();
  await page.getByRole('heading', { name: 'People' }).waitFor();
};

async function story(t: TestContext, engine: 'sqlite' | 'postgres'): Promise<void> {
  const idp = await provider(t);
  let store: string | undefined;
  const c = engine === 'postgres' ? await cluster() : null;
  if (c) store = c.database();
  const server = await serve(t, { ...(store ? { store } : {}), args: ['--oidc-issuer', idp.issuer, '--oidc-client-id', idp.clientId] });
  // After the keeper's end (hooks run in the order they are added): a database dropped under a
  // keeper that connects again and again waits for it, and the test with it.
  if (c) t.after(() => dropDatabase(c, store!));

  // Ann signs in first: acme's admin. She makes a list, a record, and an agent's token.
  const a = await signIn(t, server, idp, ann, 'admin');
  assert.equal((await api(a.page, 'create-list', { template: 'batches' })).status, 200);
  const added = await api(a.page, 'add', { list: 'batches', title: 'Ann\'s batch' });
  assert.equal(added.status, 200, added.body.text);
  assert.equal((await api(a.page, 'token-add', { name: 'Claude' })).status, 200);
  await people(a.page);
  await a.page.getByText('You are an admin of this binder.').waitFor();

  // Bob, same organisation, another browser: a member.
  const b = await signIn(t, server, idp, bob, 'member');
  await people(b.page);
  const list = b.page.locator('ul.people');
  await list.getByText('ann@acme.test').waitFor();
  await list.getByText('bob@acme.test').waitFor();
  assert.match(await list.innerText(), /Ann Lee <ann@acme\.test> admin[\s\S]*Bob Roe <bob@acme\.test> member \(you\)/);
  assert.equal(await b.page.getByRole('button', { name: /Make admin|Make member|^Remove/ }).count(), 0, 'a member sees no admin action on people');
  await b.page.getByText('Only an admin changes a role or removes a person.').waitFor();
  await axe(b.page, 'people, as a member');
  // Agents' access: shown, disabled, with why; no button that only fails.
  await b.page.getByRole('button', { name: 'agents\' access' }).click();
  await b.page.getByText(/^Only an admin of this binder changes lists, agents' access/).waitFor();
  assert.equal(await b.page.getByRole('radio', { name: 'Claude: write' }).isDisabled(), true);
  await axe(b.page, 'agents, as a member');
  await shot(b.page, `roles-member-${engine}`);
  // Forced through the page's API: refused by the store with its sentence, nothing changed.
  const forced = await api(b.page, 'grant', { list: 'batches', agent: 'Claude', access: 'write' });
  assert.equal(forced.status, 403);
  assert.match(forced.body.text, /^Only an admin of this binder can give an agent access to a list/);
  const shown = await api(a.page, 'show?list=batches', undefined);
  assert.deepEqual((shown.body.data as { list: { access: Record<string, string> } }).list.access, {}, 'nobody was granted anything');

  // Ann promotes Bob (the button, asked first); her panel opened again reads who signed in since.
  await a.page.getByRole('button', { name: 'Close' }).click();
  await people(a.page);
  await a.page.getByRole('button', { name: /^Make admin Bob Roe/ }).click();
  await a.page.getByRole('dialog').getByRole('button', { name: /^Make admin/ }).click();
  await a.page.getByText('Bob Roe is an admin of this binder now.').waitFor();
  await axe(a.page, 'people, as an admin');
  await shot(a.page, `roles-admin-${engine}`);
  // Ann demotes herself: fine, Bob is an admin.
  await a.page.getByRole('button', { name: /^Make member Ann Lee/ }).click();
  await a.page.getByRole('dialog').getByRole('button', { name: /^Make member/ }).click();
  await a.page.getByText('Ann Lee is a member of this binder now.').waitFor();
  await a.page.getByText('Signed in as Ann Lee <ann@acme.test> (member)').waitFor();

  // Bob, the last admin, tries to demote himself by the keys: refused, the sentence on the page.
  await b.page.getByText('Signed in as Bob Roe <bob@acme.test> (admin)').waitFor({ timeout: 10_000 });
  await people(b.page);
  const bobRow = b.page.locator('ul.people li', { hasText: 'bob@acme.test' });
  await bobRow.waitFor();
  await bobRow.focus();
  await b.page.keyboard.press('R');
  await b.page.getByRole('dialog').waitFor();
  await b.page.keyboard.press('y');
  await b.page.getByText('Bob Roe is this binder\'s last admin, so cannot be made a member').waitFor();
  await b.page.getByRole('button', { name: '? Keys' }).or(b.page.getByRole('button', { name: /^Keys/ })).first().click();
  await b.page.getByRole('heading', { name: 'People', level: 3 }).waitFor();
  assert.match(await b.page.locator('.help', { hasText: 'make admin or member' }).innerText(), /R[\s\S]*Make admin or member[\s\S]*D[\s\S]*Remove the person/);

  // Bob removes Ann: her session ends, her history stays.
  await people(b.page);
  await b.page.getByRole('button', { name: /^Remove Ann Lee/ }).click();
  await b.page.getByRole('dialog').getByRole('button', { name: /^Remove/ }).click();
  await b.page.getByText('Removed Ann Lee: what they did stays in the history.').waitFor();
  await a.page.getByRole('link', { name: `Sign in with ${new URL(idp.issuer).host}` }).waitFor({ timeout: 15_000 });
  assert.equal(await a.page.evaluate(async () => (await fetch('/page/session', { headers: { 'binder-page-key': localStorage.getItem('binder-page-key') ?? '' } })).status), 401, 'her session ended');
  // The panel reads the people again once the removal is heard of: under load, a moment after the message.
  await b.page.locator('ul.people li', { hasText: 'ann@acme.test' }).waitFor({ state: 'detached', timeout: 15_000 });
  await b.page.getByRole('button', { name: 'Close' }).click();
  await b.page.locator('.card', { hasText: 'Ann\'s batch' }).click();
  await b.page.locator('ol.history', { hasText: 'Ann Lee <ann@acme.test>' }).waitFor();

  // Another organisation's person sees nothing of acme's, and is the admin of their own.
  const z = await signIn(t, server, idp, zed, 'admin');
  await people(z.page);
  await z.page.locator('ul.people', { hasText: 'zed@other.test' }).waitFor();
  const seen = await z.page.locator('body').innerText();
  assert.doesNotMatch(seen, /acme|Ann's batch/i, 'nothing of acme');
  // The list's title, not the empty binder's "batches of work".
  assert.doesNotMatch(seen, /Batches/, 'nothing of acme\'s list');
  assert.deepEqual((await api(z.page, 'lists', undefined)).body.data, []);
  assert.deepEqual(((await api(z.page, 'people', undefined)).body.data as { email: string; role: string }[]).map((p) => [p.email, p.role]), [['zed@other.test', 'admin']]);
  assert.deepEqual([...a.errors, ...b.errors, ...z.errors], [], 'no script error on the pages');
}

test('roles on the page: the first admin, a member who cannot grant, a promotion, the last admin kept, a removal, another organisation [sqlite]', { timeout: 180_000 }, (t) => story(t, 'sqlite'));
test('roles on the page: the first admin, a member who cannot grant, a promotion, the last admin kept, a removal, another organisation [postgres]',
  { timeout: 180_000, ...(postgresMissing() ? { skip: postgresMissing()! } : {}) }, (t) => story(t, 'postgres'));
