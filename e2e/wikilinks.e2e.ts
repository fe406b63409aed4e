import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useBrowser, screenshot } from './harness.ts';
import { editorLocator, exportMarkdown, importMarkdown, openEditor } from './editorPage.ts';

const garden = `# Garden

What grows where.

## Beds

Beans by the fence.
`;

const walk = `A walk to the [[garden#Beds|beds]], past [[Pond]].

![[photo.png]]
`;

const browser = useBrowser();

test('a wikilink opens its target, backlinks are listed, an unresolved one creates its document, and a rename updates the links', async () => {
  const session = await openEditor(browser());
  const { page } = session;
  const editor = editorLocator(page);

  await importMarkdown(page, garden, 'Garden.md');
  await editor.getByRole('heading', { name: 'Beds' }).waitFor();
  const gardenUrl = page.url();
  await importMarkdown(page, walk, 'Walk.md');
  const walkUrl = page.url();

  const beds = editor.locator('.ink-wikilink', { hasText: 'beds' });
  const pond = editor.locator('.ink-wikilink', { hasText: 'Pond' });
  await editor.locator('.ink-wikilink[data-state="resolved"]', { hasText: 'beds' }).waitFor();
  await editor.locator('.ink-wikilink[data-state="unresolved"]', { hasText: 'Pond' }).waitFor();
  const photo = editor.locator('.ink-wikilink[data-state="file"]');
  assert.match((await photo.textContent()) ?? '', /photo\.png · not available yet/);
  const text = (await editor.textContent()) ?? '';
  assert.ok(!text.includes('[['), `shows no wikilink as source: ${text}`);
  await screenshot(page, 'wikilinks');
  assert.equal(await exportMarkdown(page), walk);

  // A click opens the target; the backlinks below it lead back.
  await beds.click();
  await page.waitForURL(gardenUrl);
  await editor.getByRole('heading', { name: 'Garden' }).waitFor();
  // The link named a heading: the caret waits in it.
  await page.waitForFunction(() => {
    const anchor = window.getSelection()?.anchorNode;
    const element = anchor instanceof Element ? anchor : anchor?.parentElement;
    return element?.closest('h2')?.textContent === 'Beds';
  });
  const backlinks = page.getByRole('region', { name: 'Backlinks' });
  await backlinks.waitFor();
  await screenshot(page, 'wikilinks-backlinks');
  await backlinks.getByRole('link', { name: 'Walk' }).click();
  await page.waitForURL(walkUrl);

  // A link that finds no document offers to create it.
  await pond.click();
  await page.getByRole('button', { name: 'Create document' }).click();
  await page.waitForURL((url) => url.href !== walkUrl && url.pathname.startsWith('/d/'));
  assert.equal(await page.getByLabel('Document title').inputValue(), 'Pond');
  await page.goBack();
  await page.waitForURL(walkUrl);
  await editor.locator('.ink-wikilink[data-state="resolved"]', { hasText: 'Pond' }).waitFor();

  // Renaming Garden offers to update the link in Walk, which then names the new title.
  await page.goto(gardenUrl);
  const title = page.getByLabel('Document title');
  await title.waitFor();
  await title.fill('Allotment');
  await page.getByRole('button', { name: 'Update 1 link' }).click();
  await page.getByText('Updated 1 link in 1 document.').waitFor();
  await page.goto(walkUrl);
  await editor.locator('.ink-wikilink[data-state="resolved"]', { hasText: 'beds' }).waitFor();
  assert.equal(
    await exportMarkdown(page),
    walk.replace('[[garden#Beds|beds]]', '[[Allotment#Beds|beds]]'),
  );

  assert.deepEqual(session.errors, []);
  await session.close();
});

test('typing [[ offers the writer’s titles, and ]] typed in full makes a link too', async () => {
  const session = await openEditor(browser());
  const { page } = session;
  const editor = editorLocator(page);
  await importMarkdown(page, garden, 'Garden.md');
  await page.getByRole('button', { name: 'New document' }).first().click();
  await page.waitForURL((url) => url.pathname.startsWith('/d/'));
  await editor.click();
  await page.keyboard.type('See [[gar');
  const picker = page.getByRole('listbox', { name: 'Link to a document' });
  await picker.getByRole('option', { name: 'Garden' }).waitFor();
  await page.keyboard.press('Enter');
  await editor.locator('.ink-wikilink[data-state="resolved"]', { hasText: 'Garden' }).waitFor();
  await page.keyboard.type(' and [[Pond]]');
  await editor.locator('.ink-wikilink[data-state="unresolved"]', { hasText: 'Pond' }).waitFor();
  const exported = await exportMarkdown(page);
  assert.ok(exported.endsWith('See [[Garden]] and [[Pond]]\n'), exported);
  assert.deepEqual(session.errors, []);
  await session.close();
});
