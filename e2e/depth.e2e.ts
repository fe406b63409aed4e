import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useBrowser } from './harness.ts';
import {
  editorLocator,
  exportMarkdown,
  importMarkdown,
  openEditor,
  paste,
  type EditorSession,
} from './editorPage.ts';

const browser = useBrowser();
let session: EditorSession;

const quotes = (levels: number) =>
  '<blockquote>'.repeat(levels) + '<p>deep</p>' + '</blockquote>'.repeat(levels);

test('Markdown and pastes nested past the limit are refused whole, with the reason', async () => {
  session = await openEditor(browser());
  const { page } = session;
  const alert = (text: RegExp) => page.getByRole('alert').filter({ hasText: text }).waitFor();
  await importMarkdown(page, '# Kept\n\nThis stays.\n', 'kept.md');
  await editorLocator(page).getByRole('heading', { name: 'Kept' }).waitFor();
  const before = await exportMarkdown(page);

  await importMarkdown(page, `Intro\n\n${'>'.repeat(20_000)} deep\n\nAfter\n`, 'deep.md', {
    rejected: true,
  });
  await alert(/Line 3 nests blocks more than 100 levels deep/);
  assert.equal(await exportMarkdown(page), before);

  await editorLocator(page).getByText('This stays.').click();
  // Led by a paragraph: pasted alone, nested quotes open up into the line and bring only text.
  await paste(page, { 'text/html': `<p>x</p>${quotes(300)}`, 'text/plain': 'deep' });
  await alert(/What you pasted would nest blocks \d+ levels deep; Inkwell accepts at most 100/);
  assert.equal(await exportMarkdown(page), before);

  await paste(page, { 'text/html': quotes(10_000), 'text/plain': 'deep' });
  await alert(/nests its HTML more than 512 elements deep/);
  assert.equal(await exportMarkdown(page), before);
  await session.close();
});
