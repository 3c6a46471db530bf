/**
 * The page's words read at a glance: every control's accessible name (buttons, links, fields'
 * labels, tabs, the table's headers) on the main views, in English and in French, is in sentence
 * case and clipped nowhere ("Appr.", "Att."). The empty binder says how to begin, the new-record
 * dialog has its state chosen and an "Add" button, and dates do not wrap.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { serve, signedIn } from './kit.js';

const ROLES = 'button|link|textbox|searchbox|combobox|checkbox|radio|tab|menuitem|columnheader|spinbutton';
/** Words that are written in capitals or with a capital whatever the place: names, not shouting. */
const NAMES = new Set(['Binder', 'Ann', 'Claude', 'English', 'Français', 'HTTP', 'MCP', 'Esc', 'Enter', 'OK',
  // The lists' own words (their titles, states and fields), which a control may carry after its own.
  'Batches', 'Tasks', 'Proposed', 'Approved', 'Doing', 'Done', 'Review', 'Priority', 'Branch']);

/** The names of the controls the page shows now, from Chromium's accessibility tree. */
async function controlNames(page: Page): Promise<string[]> {
  const tree = await page.locator('body').ariaSnapshot();
  const names: string[] = [];
  for (const line of tree.split('\n')) {
    const m = new RegExp(`^\\s*- (?:${ROLES}) "((?:[^"\\\\]|\\\\.)*)"`).exec(line);
    if (m) names.push(m[1]!.replace(/\\(.)/g, '$1'));
  }
  return names;
}

/** What is wrong with a control's name, if anything. */
export function badName(name: string): string | null {
  // A record's card (its number, then its title as typed) is the record's words, not the page's.
  if (/^#\d/.test(name)) return null;
  // A format to type (NAME:TYPE, a|b|c) is written as it is typed.
  const words = name.replace(/^[\d\s·✓●!<>?/…-]+/, '').split(/\s+/).filter((w) => w && !/[:|]/.test(w));
  const first = words[0];
  if (!first) return null;
  if (/^\p{Ll}/u.test(first)) return 'starts with a small letter';
  for (const [at, word] of words.entries()) {
    if (/^\p{L}{1,5}\.$/u.test(word) && (words.length <= 3 || /^\p{Ll}/u.test(words[at + 1] ?? ''))) return `clipped word ${word}`;
    const bare = word.replace(/[^\p{L}]/gu, '');
    if (bare.length >= 2 && bare === bare.toUpperCase() && /\p{Lu}/u.test(bare) && !NAMES.has(bare)) return `capitals ${word}`;
  }
  const rest = words.slice(1).map((w) => w.replace(/[^\p{L}]/gu, '')).filter((w) => w.length >= 3 && !NAMES.has(w));
  if (rest.length >= 1 && rest.every((w) => /^\p{Lu}/u.test(w))) return 'Title Case';
  return null;
}

function check(seen: Map<string, string>, view: string, names: string[]): void {
  for (const name of names) {
    const bad = badName(name);
    if (bad && !seen.has(name)) seen.set(name, `${view}: “${name}” (${bad})`);
  }
}

test('the check finds clipped, small-letter and Title Case names, and passes sentence case', () => {
  assert.equal(badName('Appr.'), 'clipped word Appr.');
  assert.equal(badName('Att.'), 'clipped word Att.');
  assert.equal(badName('what changed'), 'starts with a small letter');
  assert.equal(badName('Agent Folders'), 'Title Case');
  assert.equal(badName('NEW RECORD'), 'capitals NEW');
  assert.equal(badName('New record'), null);
  assert.equal(badName('#3 first batch'), null);
  assert.equal(badName('Remove Doing'), null);
  assert.equal(badName('Approve a'), null);
  assert.equal(badName('Agent tokens (HTTP)'), null);
});

async function namesOfViews(page: Page, seen: Map<string, string>, lang: 'en' | 'fr'): Promise<void> {
  const t = lang === 'en'
    ? { search: 'Search', changed: 'What changed', folders: 'Agent folders', keys: 'Keys', add: 'New record', table: 'Edit the list' }
    : { search: 'Recherche', changed: 'Ce qui a changé', folders: 'Dossiers des agents', keys: 'Touches', add: 'Nouvelle fiche', table: 'Modifier la liste' };
  await page.locator('.card').first().waitFor();
  check(seen, `${lang} board`, await controlNames(page));
  await page.locator('.card').first().click();
  await page.locator('.record').waitFor();
  check(seen, `${lang} record`, await controlNames(page));
  for (const view of [t.search, t.changed, t.folders, t.keys, t.table]) {
    await page.getByRole('button', { name: view }).first().click();
    await page.locator('.panel h2').first().waitFor();
    check(seen, `${lang} ${view}`, await controlNames(page));
  }
  await page.getByRole('button', { name: t.add, exact: true }).first().click();
  await page.getByRole('dialog').waitFor();
  check(seen, `${lang} new record`, await controlNames(page));
  await page.keyboard.press('Escape');
}

test('every control on the main views is named in sentence case, with no clipped word, in English and French', { timeout: 120_000 }, async (t) => {
  const server = await serve(t);
  server.admin('create-list', 'Batches', '--template', 'batches');
  server.admin('create-list', 'Tasks', '--template', 'tasks');
  server.admin('edit-list', 'Tasks', '--view', 'table');
  server.admin('add', 'Batches', 'first batch');
  server.admin('add', 'Tasks', 'first task');
  const page = await signedIn(t, server);
  const seen = new Map<string, string>();
  await namesOfViews(page, seen, 'en');
  await page.getByRole('button', { name: 'Tasks' }).click();
  await page.locator('table').waitFor();
  check(seen, 'en table', await controlNames(page));
  await page.getByLabel('Language').selectOption('fr');
  await page.getByRole('heading', { name: 'Listes' }).waitFor();
  await page.getByRole('button', { name: 'Batches' }).click();
  await namesOfViews(page, seen, 'fr');
  assert.deepEqual([...seen.values()], [], 'every control in sentence case, no clipped word');
});

test('the empty binder says how to begin; a new record has its state chosen and an Add button; dates do not wrap', { timeout: 90_000 }, async (t) => {
  const server = await serve(t);
  const page = await signedIn(t, server);
  const main = page.locator('main');
  await main.getByText(/New list/).waitFor();
  assert.match(await main.innerText(), /New list/, 'the empty binder names the button that begins');
  server.admin('create-list', 'Batches', '--template', 'batches');
  await page.locator('.list-head').waitFor();
  await page.getByRole('button', { name: 'New record', exact: true }).click();
  const dialog = page.getByRole('dialog');
  const chosen = await dialog.getByLabel('State').inputValue();
  assert.notEqual(chosen, '', 'the state is chosen');
  await dialog.getByLabel('Title').fill('made here');
  assert.doesNotMatch(await dialog.innerText(), /^the title$/m, 'a hint that says something');
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await page.locator('.card', { hasText: 'made here' }).click();
  const nowrap = await page.locator('.facts dd.date').first().evaluate((el) => getComputedStyle(el).whiteSpace);
  assert.equal(nowrap, 'nowrap');
});

test('a list in table view shows its fields as columns, and the record number once', { timeout: 90_000 }, async (t) => {
  const server = await serve(t);
  server.admin('create-list', 'Tasks', '--template', 'tasks');
  server.admin('edit-list', 'Tasks', '--view', 'table');
  server.admin('add', 'Tasks', 'Write the docs', '--field', 'Priority=High');
  const page = await signedIn(t, server);
  await page.locator('table').waitFor();
  const headers = await page.getByRole('columnheader').allInnerTexts();
  assert.ok(headers.includes('Priority'), `the field is a column: ${headers.join(', ')}`);
  assert.ok(!headers.includes('#') && headers.includes('Number'), `the number in a column named in words: ${headers.join(', ')}`);
  assert.equal(await page.getByRole('cell', { name: 'High', exact: true }).count(), 1);
  assert.equal((await page.locator('tbody tr').first().innerText()).split('#1').length, 2, 'the record number once');
});
