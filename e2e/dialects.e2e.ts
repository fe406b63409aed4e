import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useBrowser, screenshot } from './harness.ts';
import {
  editorLocator,
  exportMarkdown,
  importMarkdown,
  openEditor,
  type EditorSession,
} from './editorPage.ts';

const NOTE = [
  '---',
  'title: Trip notes # shown in lists',
  'status: draft',
  'tags: [travel, spain]',
  '---',
  '',
  '# Seville',
  '',
  '> [!note] Before leaving',
  '> Check the **passport**.',
  '',
  '> [!tip]- Folded tip',
  '> Hidden until opened.',
  '',
].join('\n');

const browser = useBrowser();
let session: EditorSession;

test('imports a note with front matter and callouts, edits a property, exports the change', async () => {
  session = await openEditor(browser());
  const { page } = session;
  await importMarkdown(page, NOTE, 'trip.md');
  const editor = editorLocator(page);
  await editor.getByRole('heading', { name: 'Seville', level: 1 }).waitFor();

  // The callouts are callouts, not quotes holding escaped `[!note]` source.
  const note = editor.locator('.ink-callout[data-callout="note"]');
  await note.waitFor();
  assert.equal(await note.locator('.ink-callout__title').textContent(), 'Before leaving');
  // Their menus and titles are buttons until used: no form control per callout (controlOnUse.ts).
  assert.equal(await editor.locator('.ink-callout :is(select, input, textarea)').count(), 0);
  await note.getByText('Check the passport.').waitFor();
  assert.equal(await editor.getByText('[!note]').count(), 0);
  assert.equal(await editor.locator('blockquote').count(), 0);
  const tip = editor.locator('.ink-callout[data-callout="tip"]');
  assert.equal(await tip.getAttribute('data-fold'), '-');
  assert.equal(await tip.getByText('Hidden until opened.').isVisible(), false);

  // The Properties panel lists the keys, and exporting untouched gives the file back.
  const properties = page.getByRole('table', { name: 'Properties' });
  await properties.waitFor();
  for (const key of ['title', 'status', 'tags']) {
    await properties.getByRole('rowheader', { name: key }).waitFor();
  }
  assert.equal(await exportMarkdown(page), NOTE);
  await screenshot(page, 'dialects-import');

  // Editing a value rewrites the YAML, comment and all; the export has the new value.
  const status = properties.getByRole('textbox', { name: 'status' });
  await status.fill('published');
  await status.press('Enter');
  assert.equal(await exportMarkdown(page), NOTE.replace('status: draft', 'status: published'));

  // Adding and removing properties rewrite the YAML too.
  await properties.getByRole('button', { name: 'Remove tags' }).click();
  await page.getByRole('textbox', { name: 'New property name' }).fill('mood');
  await page.getByRole('textbox', { name: 'New property value' }).fill('calm');
  await page.getByRole('textbox', { name: 'New property value' }).press('Enter');
  await properties.getByRole('rowheader', { name: 'mood' }).waitFor();
  assert.match(
    await exportMarkdown(page),
    /^---\ntitle: Trip notes # shown in lists\nstatus: published\nmood: calm\n---\n\n# Seville\n/,
  );

  // Opening the folded callout is an edit of its marker.
  await tip.getByRole('button', { name: 'Expand callout' }).click();
  await tip.getByText('Hidden until opened.').waitFor();
  assert.match(await exportMarkdown(page), /^> \[!tip\]\+ Folded tip$/m);
  assert.deepEqual(session.errors, []);
  await session.close();
});

test('a callout is inserted from the slash menu, its type changed from its menu', async () => {
  session = await openEditor(browser());
  const { page } = session;
  await page.waitForLoadState('networkidle');
  const editor = editorLocator(page);
  await editor.click();
  await page.keyboard.type('/callout');
  const menu = page.getByRole('listbox', { name: 'Blocks' });
  await menu.getByRole('option', { name: 'Callout', exact: true }).click();
  await menu.waitFor({ state: 'detached' });
  await page.keyboard.type('Bring water.');
  const callout = editor.locator('.ink-callout');
  await callout.getByText('Bring water.').waitFor();

  await callout.getByRole('button', { name: 'Callout type: note' }).click();
  await callout.getByRole('combobox', { name: 'Callout type' }).selectOption('WARNING');
  await editor.locator('.ink-callout[data-family="warning"]').waitFor();
  await callout.getByRole('button', { name: 'Callout type: WARNING' }).waitFor();
  await callout.getByRole('button', { name: 'Callout title: none' }).click();
  const title = callout.getByRole('textbox', { name: 'Callout title' });
  await title.fill('Heat');
  await title.press('Enter');
  await callout.getByRole('button', { name: 'Callout title: Heat' }).waitFor();
  assert.match(await exportMarkdown(page), /^> \[!WARNING\] Heat\n> Bring water\.\n/);
  // Escape leaves the title as it was.
  await callout.getByRole('button', { name: 'Callout title: Heat' }).click();
  await title.fill('Shade');
  await title.press('Escape');
  await callout.getByRole('button', { name: 'Callout title: Heat' }).waitFor();
  assert.match(await exportMarkdown(page), /^> \[!WARNING\] Heat\n/);
  assert.deepEqual(session.errors, []);
  await session.close();
});

test('front matter that is not valid YAML is shown as its source and exported unchanged', async () => {
  session = await openEditor(browser());
  const { page } = session;
  const note = '---\ntags: [unclosed\n---\n\nText.\n';
  await importMarkdown(page, note, 'broken.md');
  const source = page.getByRole('textbox', { name: 'Properties source (YAML)' });
  await source.waitFor();
  assert.equal(await source.inputValue(), 'tags: [unclosed\n');
  await page.getByText(/Not valid YAML/).waitFor();
  assert.equal(await exportMarkdown(page), note);

  // Fixing it in the source turns it into properties.
  await source.fill('tags: [closed]\n');
  await source.blur();
  await page
    .getByRole('table', { name: 'Properties' })
    .getByRole('rowheader', { name: 'tags' })
    .waitFor();
  assert.equal(await exportMarkdown(page), '---\ntags: [closed]\n---\n\nText.\n');
  assert.deepEqual(session.errors, []);
  await session.close();
});
