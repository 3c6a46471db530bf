/**
 * The page on a phone (390×844, touch, Chromium's device emulation) and on a desktop (1440×900):
 * on the phone one short bar with a menu that holds the views, the lists in a drawer, a list's
 * states as tabs (one column at a time, tapped or swiped), an open record over the whole screen
 * with its actions at hand, and every target 44 px at least; on the desktop, none of that.
 * axe finds nothing serious at either size.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { axe, serve, shot, signedIn } from './kit.js';

/** Visible controls smaller than a finger, by their names. */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => [...document.querySelectorAll<HTMLElement>('button, a[href], select, input, [role="tab"]')]
    .filter((el) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden' && !el.closest('.skip');
    })
    .map((el) => {
      const r = el.getBoundingClientRect();
      // A checkbox or radio counts with its label, which takes the tap too.
      const box = (el as HTMLInputElement).type === 'checkbox' || (el as HTMLInputElement).type === 'radio' ? el.closest('label')?.getBoundingClientRect() ?? r : r;
      return { name: (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40) || el.tagName, w: box.width, h: box.height };
    })
    .filter((t) => t.h < 44 || t.w < 44)
    .map((t) => `${t.name} ${Math.round(t.w)}×${Math.round(t.h)}`));
}

const shown = (page: Page, selector: string) => page.locator(selector).evaluate((el) => getComputedStyle(el).display !== 'none');

test('on a phone: a short bar with a menu, the lists in a drawer, states as tabs, a record over the screen, targets of 44 px', { timeout: 120_000 }, async (t) => {
  const server = await serve(t);
  server.admin('create-list', 'Batches', '--template', 'batches');
  server.admin('create-list', 'Tasks', '--template', 'tasks');
  server.admin('add', 'Batches', 'Paint the fence');
  server.admin('add', 'Batches', 'Fix the gate', '--state', 'Doing');
  const page = await signedIn(t, server, { phone: true });
  await page.locator('.card', { hasText: 'Paint the fence' }).waitFor();

  const bar = await page.locator('header.top').boundingBox();
  assert.ok(bar && bar.height <= 56, `the bar is ${bar?.height} px high`);
  assert.equal(await page.getByRole('button', { name: 'Search' }).isVisible(), false, 'the views wait in the menu');
  await page.getByRole('button', { name: 'Menu' }).tap();
  const menu = page.locator('#top-menu');
  for (const name of ['Search', 'What changed', 'Agent folders', 'Keys', 'Sign out']) assert.ok(await menu.getByRole('button', { name }).isVisible(), `${name} in the menu`);
  assert.ok(await menu.getByLabel('Language').isVisible());
  assert.ok(await menu.getByText('Signed in as Ann').isVisible());
  await shot(page, '30-phone-menu');
  await axe(page, 'the phone\'s menu');
  assert.deepEqual(await smallTargets(page), [], 'every target in the menu is 44 px at least');
  await menu.getByRole('button', { name: 'What changed' }).tap();
  await page.getByRole('heading', { name: 'What changed since you last looked' }).waitFor();
  assert.equal(await menu.isVisible(), false, 'a choice closes the menu');
  await page.getByRole('button', { name: 'Close' }).tap();

  // A list's states as tabs: one column at a time.
  const tabs = page.getByRole('tablist', { name: 'States' });
  assert.equal(await tabs.getByRole('tab').count(), 4);
  assert.equal(await page.locator('.column').filter({ visible: true }).count(), 1, 'one column at a time');
  assert.ok(await page.locator('.card', { hasText: 'Paint the fence' }).isVisible());
  await tabs.getByRole('tab', { name: /Doing/ }).tap();
  await page.locator('.card', { hasText: 'Fix the gate' }).waitFor();
  assert.equal(await page.locator('.card', { hasText: 'Paint the fence' }).isVisible(), false);
  assert.equal(await tabs.getByRole('tab', { name: /Doing/ }).getAttribute('aria-selected'), 'true');
  assert.deepEqual(await smallTargets(page), [], 'every target on the board is 44 px at least');
  await shot(page, '31-phone-tabs');
  await axe(page, 'the phone\'s board');

  // The lists in a drawer.
  assert.equal(await page.locator('#lists-nav').isVisible(), false, 'the lists wait in their drawer');
  await page.getByRole('button', { name: 'Lists' }).tap();
  await page.locator('#lists-nav').waitFor();
  await shot(page, '32-phone-drawer');
  await axe(page, 'the phone\'s drawer');
  await page.locator('#lists-nav').getByRole('button', { name: /Tasks/ }).tap();
  await page.getByRole('heading', { name: /^Tasks/ }).waitFor();
  assert.equal(await page.locator('#lists-nav').isVisible(), false, 'a list opened closes the drawer');

  // A record over the whole screen, its approve at hand.
  await page.getByRole('button', { name: 'Lists' }).tap();
  await page.locator('#lists-nav').getByRole('button', { name: /Batches/ }).tap();
  await page.locator('.card', { hasText: 'Paint the fence' }).tap();
  const panel = await page.locator('.panel').boundingBox();
  assert.ok(panel && panel.width >= 389 && panel.y <= 57 && panel.y + panel.height >= 800, `the record covers the screen: ${JSON.stringify(panel)}`);
  const approve = page.getByRole('button', { name: /^Approve/ });
  await approve.waitFor();
  const at = await approve.boundingBox();
  assert.ok(at && at.y + at.height <= 844, 'approve is on the screen without scrolling');
  assert.deepEqual(await smallTargets(page), [], 'every target of the record is 44 px at least');
  await shot(page, '33-phone-record');
  await axe(page, 'a record on a phone');
});

test('on a desktop: the bar, the lists and the columns as they were, no tab and no menu button', { timeout: 90_000 }, async (t) => {
  const server = await serve(t);
  server.admin('create-list', 'Batches', '--template', 'batches');
  server.admin('add', 'Batches', 'Paint the fence');
  const page = await signedIn(t, server, { width: 1440, height: 900 });
  await page.locator('.card').first().waitFor();
  assert.ok(await page.getByRole('button', { name: 'Search' }).isVisible(), 'the views are in the bar');
  assert.equal(await page.getByRole('button', { name: 'Menu' }).isVisible(), false);
  assert.equal(await shown(page, '.state-tabs'), false, 'no tabs on a desktop');
  assert.equal(await page.locator('.column').filter({ visible: true }).count(), 4, 'every column');
  assert.ok(await page.locator('#lists-nav').isVisible());
  await shot(page, '34-desktop-board');
  await axe(page, 'the desktop board');
});

test('on a phone the list\'s tools take one row, the rarer ones behind More, in English and French', { timeout: 90_000 }, async (t) => {
  const server = await serve(t);
  server.admin('create-list', 'Tasks', '--template', 'tasks');
  server.admin('add', 'Tasks', 'Paint the fence');
  const page = await signedIn(t, server, { phone: true });
  await page.locator('.card', { hasText: 'Paint the fence' }).waitFor();
  /** The tops and bottoms of the list's tools that show, by their names. */
  const tools = () => page.locator('.list-head button').evaluateAll((buttons) => buttons
    .map((b) => ({ name: b.textContent ?? '', box: b.getBoundingClientRect() }))
    .filter((b) => b.box.height > 0)
    .map((b) => ({ name: b.name, top: Math.round(b.box.top), bottom: Math.round(b.box.bottom), right: Math.round(b.box.right) })));
  for (const lang of ['en', 'fr'] as const) {
    if (lang === 'fr') {
      await page.getByRole('button', { name: 'Menu' }).tap();
      await page.getByLabel('Language').selectOption('fr');
      await page.getByRole('button', { name: 'Plus', exact: true }).waitFor();
      // The menu stays open while the language is chosen: closed again by its button.
      await page.getByRole('button', { name: 'Menu' }).tap();
    }
    const shown = await tools();
    const tops = new Set(shown.map((b) => b.top));
    assert.equal(tops.size, 1, `one row of tools: ${JSON.stringify(shown)}`);
    assert.ok(shown.every((b) => b.bottom - b.top >= 44 && b.right <= 390), `targets of 44 px, on the screen: ${JSON.stringify(shown)}`);
    const row = Math.max(...shown.map((b) => b.bottom)) - Math.min(...shown.map((b) => b.top));
    assert.ok(row <= 52, `the tools are ${row} px high`);
  }
  await shot(page, '35-phone-tools-fr');
  await page.getByRole('button', { name: 'Plus', exact: true }).tap();
  assert.equal(await page.getByRole('button', { name: 'Plus', exact: true }).getAttribute('aria-expanded'), 'true');
  await page.getByRole('button', { name: 'Modifier la liste' }).tap();
  await page.locator('.panel').getByRole('heading').first().waitFor();
  await axe(page, 'the list\'s editor from More on a phone');
});

test('on a desktop with a record open, the board scrolls sideways to its last column, and a sign says there is more', { timeout: 90_000 }, async (t) => {
  const server = await serve(t);
  server.admin('create-list', 'Batches', '--template', 'batches');
  server.admin('add', 'Batches', 'Paint the fence');
  server.admin('add', 'Batches', 'Fix the gate', '--state', 'Done');
  const page = await signedIn(t, server, { width: 1440, height: 900 });
  await page.locator('.card', { hasText: 'Paint the fence' }).click();
  await page.locator('.panel').getByRole('heading', { name: '#1 Paint the fence' }).waitFor();
  const board = page.locator('.board');
  const sizes = await board.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  assert.ok(sizes.scroll > sizes.client, `the board is wider than its room: ${JSON.stringify(sizes)}`);
  /** How far the last column's right edge is past the board's. */
  const lastPast = () => board.evaluate((el) => {
    const last = [...el.querySelectorAll('.column')].pop()!.getBoundingClientRect();
    return Math.round(last.right - el.getBoundingClientRect().right);
  });
  assert.ok(await lastPast() > 0, 'the last column is past the edge');
  const sign = page.getByRole('button', { name: /^Later states \(\d\) →$/ });
  assert.ok(await sign.isVisible(), 'a sign says there is more');
  await shot(page, '36-desktop-record-board');
  await axe(page, 'the board with a record open');
  // Each press scrolls to the next hidden state; the sign is drawn again (or goes) after the scroll
  // is seen, so the next look waits for that rather than pressing a sign about to go.
  for (let shown = await sign.textContent(); shown !== null; ) {
    await sign.click();
    const was = shown;
    await page.waitForFunction((text) => ![...document.querySelectorAll('.edge.after')].some((b) => b.textContent === text), was);
    shown = await sign.isVisible() ? await sign.textContent() : null;
  }
  assert.ok(await lastPast() <= 1, 'the last column in view');
  await page.locator('.column', { hasText: 'Fix the gate' }).getByRole('button', { name: /Fix the gate/ }).click();
  await page.locator('.panel').getByRole('heading', { name: '#2 Fix the gate' }).waitFor();
  assert.ok(await page.getByRole('button', { name: /^← Earlier states \(\d\)$/ }).isVisible(), 'a sign says there is more the other way');
  await shot(page, '37-desktop-board-scrolled');
});
