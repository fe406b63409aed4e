import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parseMarkdown, serializeMarkdown } from '../common/editor/markdown/index.ts';
import { useBrowser, screenshot } from './harness.ts';
import {
  editorLocator,
  exportMarkdown,
  importMarkdown,
  openEditor,
  paste,
  scriptCalls,
  TOP_LEVEL,
  type EditorSession,
} from './editorPage.ts';

const sample = readFileSync(new URL('./fixtures/sample.md', import.meta.url), 'utf8');

const browser = useBrowser();
let session: EditorSession;

test('imports a Markdown file, shows every kind of content, and exports the same Markdown', async () => {
  session = await openEditor(browser());
  const { page } = session;
  await importMarkdown(page, sample, 'sample.md');
  const editor = editorLocator(page);
  await editor.getByRole('heading', { name: 'Inkwell sample', level: 1 }).waitFor();
  for (const selector of [
    'h2',
    'ul li',
    'ol li',
    'ul[data-type="taskList"] li',
    'blockquote blockquote',
    'pre code',
    'table th',
    'img[src="https://example.com/picture.png"]',
    'iframe[src^="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"]',
    'strong',
    'em',
    'u',
    's',
    'code',
    'a[href="https://example.com"]',
    'mark',
    'hr',
    'br',
  ]) {
    assert.ok((await editor.locator(selector).count()) > 0, `missing ${selector}`);
  }
  await screenshot(page, 'markdown-import');
  const exported = await exportMarkdown(page);
  // The browser() runs the same codec as the command line, and the file comes back as it went in.
  assert.equal(exported, serializeMarkdown(parseMarkdown(sample)));
  assert.equal(exported, sample);
  // Importing the export again gives the export again.
  await importMarkdown(page, exported, 'again.md');
  await editor.getByRole('heading', { name: 'Inkwell sample', level: 1 }).waitFor();
  assert.equal(await exportMarkdown(page), exported);
  assert.deepEqual(session.errors, []);
  await session.close();
});

test('a file that is not UTF-8 text or is too big gets a clear message and changes nothing', async () => {
  session = await openEditor(browser());
  const { page } = session;
  await importMarkdown(page, '# Kept\n\nThis stays.\n', 'kept.md');
  await editorLocator(page).getByRole('heading', { name: 'Kept' }).waitFor();
  const before = await exportMarkdown(page);

  await importMarkdown(
    page,
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0x00]),
    'image.md',
    { rejected: true },
  );
  await page
    .getByRole('alert')
    .filter({ hasText: /not UTF-8 text|binary/ })
    .waitFor();
  assert.equal(await exportMarkdown(page), before);

  await importMarkdown(page, Buffer.alloc(10 * 1024 * 1024 + 1, 0x61), 'huge.md', {
    rejected: true,
  });
  await page
    .getByRole('alert')
    .filter({ hasText: /up to 10\.0 MB/ })
    .waitFor();
  assert.equal(await exportMarkdown(page), before);
  await session.close();
});

test('a plain paste is not converted from Markdown; Paste as Markdown is', async () => {
  session = await openEditor(browser());
  const { page } = session;
  const editor = editorLocator(page);
  await editor.click();
  await paste(page, { 'text/plain': '# Not a heading with **stars**' });
  await editor.getByText('# Not a heading with **stars**').waitFor();
  assert.equal(await editor.locator('h1, strong').count(), 0);

  await page.keyboard.press('Enter');
  await page.evaluate(() => navigator.clipboard.writeText('## Converted **bold**'));
  await page.keyboard.press('ControlOrMeta+Shift+V');
  await editor.getByRole('heading', { name: 'Converted bold', level: 2 }).waitFor();
  assert.equal(await editor.locator('h2 strong').count(), 1);
  await session.close();
});

test('a table pasted from a word processor, column widths and all, is saved', async () => {
  session = await openEditor(browser());
  const { page } = session;
  const editor = editorLocator(page);
  await editor.click();
  // Google Docs and Word give each column a width, which the editor keeps on the cells.
  await paste(page, {
    'text/html':
      '<table><colgroup><col width="212"><col width="98"></colgroup>' +
      '<tr><td>Quarter</td><td>Sales</td></tr><tr><td>Q1</td><td>40</td></tr></table>',
    'text/plain': 'Quarter\tSales\nQ1\t40',
  });
  await editor.getByRole('cell', { name: 'Q1' }).waitFor();
  // Saved: the server accepted and stored the live update (a refused one closes the socket and
  // never reaches Saved).
  await page.getByRole('status').getByText('Saved', { exact: true }).waitFor({ timeout: 15_000 });
  const stored = await page.evaluate(async (url) => {
    const id = new URL(url).pathname.split('/').pop();
    return (await fetch(`/api/documents/${id}`).then((res) => res.text())) as string;
  }, page.url());
  assert.match(stored, /"colwidth":\[212\]/);
  assert.match(stored, /"text":"Q1"/);
  await session.close();
});

test('a page with a form pastes its text, even when its fields are named like DOM properties', async () => {
  session = await openEditor(browser());
  const { page } = session;
  const editor = editorLocator(page);
  await editor.click();
  // A field named nodeName hides the form's own nodeName, which made the paste throw.
  await paste(page, {
    'text/html':
      '<p>Before the form</p><form><input name="nodeName"><input name="childNodes">' +
      '<p>Inside the form</p></form><p>After the form</p>',
    'text/plain': 'Before the form\nInside the form\nAfter the form',
  });
  await editor.getByText('After the form').waitFor();
  assert.deepEqual(await editor.locator(TOP_LEVEL).allTextContents(), [
    'Before the form',
    'Inside the form',
    'After the form',
  ]);
  await session.close();
});

test('a javascript: link, pasted or typed, is dropped and its text kept', async () => {
  session = await openEditor(browser());
  const { page } = session;
  const editor = editorLocator(page);
  await editor.click();
  await paste(page, {
    'text/html':
      '<p><a href="javascript:alert(1)">pasted</a> and <a href=" JaVaScRiPt:alert(2)">spaced</a></p>',
    'text/plain': 'pasted and spaced',
  });
  await editor.getByText('pasted and spaced').waitFor();
  assert.equal(await editor.locator('a').count(), 0);

  await page.keyboard.press('Enter');
  await page.keyboard.type('typed link');
  await page.keyboard.press('Shift+Home');
  await page.getByRole('toolbar', { name: 'Text formatting' }).waitFor();
  await page.keyboard.press('ControlOrMeta+k');
  const input = page.getByRole('textbox', { name: /link/i });
  await input.fill('javascript:alert(3)');
  await input.press('Enter');
  await page
    .getByRole('alert')
    .filter({ hasText: /javascript/i })
    .waitFor();
  assert.equal(await editor.locator('a').count(), 0);
  assert.deepEqual(await scriptCalls(page), []);
  await session.close();
});
