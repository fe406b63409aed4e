import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { useBrowser, screenshot } from './harness.ts';
import {
  editorLocator,
  exportMarkdown,
  importMarkdown,
  openEditor,
  type EditorSession,
} from './editorPage.ts';

const note = `# Field notes

A ==bright== idea about #ideas/garden with a thin space $a\\,b$ and a claim.[^src]

$$
\\int_0^1 x^2 \\, dx = \\frac{1}{3}
$$

Draft %%check the numbers%% before sending.^[An aside.]

[^src]: The source of the claim.
`;

const browser = useBrowser();
let session: EditorSession;

/** The resources the page has loaded whose URL mentions `word`. */
const loaded = (page: Page, word: string) =>
  page.evaluate(
    (w) =>
      performance
        .getEntriesByType('resource')
        .map((entry) => entry.name)
        .filter((name) => name.toLowerCase().includes(w)),
    word,
  );

test('imports math, a footnote, a highlight, a tag and a comment, each rendered as itself, and exports them unchanged', async () => {
  session = await openEditor(browser());
  const { page } = session;
  // KaTeX is not part of the editor's first download: it comes with the first math shown.
  assert.deepEqual(await loaded(page, 'katex'), []);

  await importMarkdown(page, note, 'field-notes.md');
  const editor = editorLocator(page);
  await editor.getByRole('heading', { name: 'Field notes' }).waitFor();

  await editor.locator('.ink-math--inline .katex').waitFor();
  await editor.locator('.ink-math--block .katex-display').waitFor();
  assert.ok((await loaded(page, 'katex')).length > 0, 'KaTeX loaded on first use');
  assert.equal(await editor.locator('mark').textContent(), 'bright');
  assert.equal(await editor.locator('.ink-tag').textContent(), '#ideas/garden');
  assert.equal(await editor.locator('.ink-comment').textContent(), '%%check the numbers%%');
  const ref = editor.locator('sup[data-footnote]');
  assert.equal(await ref.getAttribute('data-number'), '1');
  assert.equal(await editor.locator('.ink-footnote').getAttribute('data-number'), '1');
  const aside = editor.locator('sup.ink-footnote-ref--inline');
  assert.equal(await aside.getAttribute('data-number'), '2');
  assert.equal(await aside.getAttribute('title'), 'An aside.');
  const text = (await editor.textContent()) ?? '';
  for (const escaped of ['\\$', '\\[^', '\\==', '\\#', '==bright==']) {
    assert.ok(!text.includes(escaped), `shows ${escaped} as source`);
  }
  await screenshot(page, 'inline-dialects');
  assert.equal(await exportMarkdown(page), note);

  // A click on the reference goes to the definition, its ↩ back to the reference.
  await ref.click();
  const inDefinition = () =>
    page.evaluate(() => {
      const anchor = window.getSelection()?.anchorNode;
      const element = anchor instanceof Element ? anchor : anchor?.parentElement;
      return (
        element?.closest('.ink-footnote') !== null &&
        element?.closest('.ink-footnote') !== undefined
      );
    });
  assert.equal(await inDefinition(), true);
  await editor.locator('.ink-footnote__back').click();
  await editor.locator('sup.ink-footnote-ref.ProseMirror-selectednode').waitFor();

  // A click on the math opens its source in place; Enter keeps the edit.
  await editor.locator('.ink-math--inline .katex-html .mord').first().click();
  const source = editor.locator('input.ink-math__source');
  assert.equal(await source.inputValue(), 'a\\,b');
  await source.fill('a\\;b');
  await source.press('Enter');
  await editor.locator('.ink-math--inline .katex').waitFor();
  assert.equal(await exportMarkdown(page), note.replace('$a\\,b$', '$a\\;b$'));

  // A click on the tag searches for it in the sidebar.
  await editor.locator('.ink-tag').click();
  const search = page.getByRole('searchbox', { name: 'Search documents' });
  await page.waitForFunction(
    () =>
      (document.querySelector('input[type=search]') as HTMLInputElement | null)?.value ===
      '#ideas/garden',
  );
  assert.equal(await search.inputValue(), '#ideas/garden');

  assert.deepEqual(session.errors, []);
  await session.close();
});

test('typing #tag and ==text== makes a tag and a highlight that export as typed', async () => {
  session = await openEditor(browser());
  const { page } = session;
  const editor = editorLocator(page);
  await editor.click();
  await page.keyboard.type('Plan #garden/beds then ==water== daily');
  await editor.locator('.ink-tag').waitFor();
  assert.equal(await editor.locator('.ink-tag').textContent(), '#garden/beds');
  assert.equal(await editor.locator('mark').textContent(), 'water');
  const exported = await exportMarkdown(page);
  assert.ok(exported.endsWith('Plan #garden/beds then ==water== daily\n'), exported);
  assert.deepEqual(session.errors, []);
  await session.close();
});

test('a mermaid code block is drawn as a diagram (mermaid loaded then), its code kept as written', async () => {
  session = await openEditor(browser());
  const { page } = session;
  assert.deepEqual(await loaded(page, 'mermaid'), []);
  const markdown = '# Flow\n\n```mermaid\ngraph TD\n  A[Idea] --> B[Draft]\n```\n';
  await importMarkdown(page, markdown, 'flow.md');
  const editor = editorLocator(page);
  await editor.locator('.ink-mermaid svg').waitFor();
  assert.ok((await loaded(page, 'mermaid')).length > 0, 'mermaid loaded on first use');
  assert.ok(((await editor.locator('.ink-mermaid svg').textContent()) ?? '').includes('Draft'));
  // The code stays an editable code block beside the drawing.
  const code = editor.locator('pre code');
  const box = (await code.boundingBox())!;
  // At the end of its last line.
  await code.click({ position: { x: box.width - 2, y: box.height - 4 } });
  await page.keyboard.press('End');
  await page.keyboard.type(' --> C[Done]');
  await page.waitForFunction(() =>
    document.querySelector('.ink-mermaid svg')?.textContent?.includes('Done'),
  );
  assert.equal(
    await exportMarkdown(page),
    '# Flow\n\n```mermaid\ngraph TD\n  A[Idea] --> B[Draft] --> C[Done]\n```\n',
  );
  assert.deepEqual(session.errors, []);
  await session.close();
});

test('Mod-P prints a long document with the diagrams far below drawn, and no sidebar beside it', async () => {
  session = await openEditor(browser());
  const { page } = session;
  const filler = Array.from({ length: 400 }, (_, i) => `Paragraph ${i + 1} of the filler.`);
  const markdown = `# Report\n\n${filler.join('\n\n')}\n\n\`\`\`mermaid\ngraph TD\n  A[Far] --> B[Below]\n\`\`\`\n`;
  await importMarkdown(page, markdown, 'report.md');
  const editor = editorLocator(page);
  await editor.getByRole('heading', { name: 'Report' }).waitFor();
  const diagram = editor.locator('.ink-mermaid');
  await diagram.waitFor({ state: 'attached' });
  // Far below the viewport: not drawn yet (mermaid not even loaded).
  assert.equal(await diagram.locator('svg').count(), 0);
  assert.deepEqual(await loaded(page, 'mermaid'), []);
  // The print itself is the browser's; what it would print is read where it starts.
  await page.evaluate(() => {
    window.print = () => {
      document.body.dataset.printedDiagrams = String(
        document.querySelectorAll('.ink-mermaid svg').length,
      );
    };
  });
  await editor.getByRole('heading', { name: 'Report' }).click();
  await page.keyboard.press('Control+P');
  await page.waitForFunction(() => document.body.dataset.printedDiagrams !== undefined);
  assert.equal(await page.evaluate(() => document.body.dataset.printedDiagrams), '1');
  assert.ok(((await diagram.locator('svg').textContent()) ?? '').includes('Below'));
  // What the printer gets: the document, without the sidebar's list of documents beside it.
  assert.equal(await page.locator('.ink-sidebar').isVisible(), true);
  await page.emulateMedia({ media: 'print' });
  assert.equal(await page.locator('.ink-sidebar').isVisible(), false);
  assert.equal(await editor.getByRole('heading', { name: 'Report' }).isVisible(), true);
  assert.deepEqual(session.errors, []);
  await session.close();
});

test('math from the slash menu opens its source, and an emptied formula goes away', async () => {
  session = await openEditor(browser());
  const { page } = session;
  const editor = editorLocator(page);
  await editor.click();
  await page.keyboard.type('Area ');
  await page.keyboard.type('/inline');
  // Enter once the menu offers it, as a person sees it first: the menu's code loads with the
  // first key, and keys sent back to back can arrive before it.
  await page
    .getByRole('listbox', { name: 'Blocks' })
    .getByRole('option', { name: 'Inline math', selected: true })
    .waitFor();
  await page.keyboard.press('Enter');
  const source = editor.locator('input.ink-math__source');
  await source.waitFor();
  await source.fill('\\pi r^2');
  await source.press('Enter');
  await editor.locator('.ink-math--inline .katex').waitFor();
  assert.ok((await exportMarkdown(page)).endsWith('Area $\\pi r^2$\n'));

  // Enter on the selected formula opens it too (the keyboard's way in).
  await editor.getByText('Area').click();
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowLeft');
  await editor.locator('.ink-math.ProseMirror-selectednode').waitFor();
  await page.keyboard.press('Enter');
  await source.waitFor();
  await source.fill('');
  await source.press('Enter');
  await editor.locator('.ink-math').waitFor({ state: 'detached' });
  const emptied = await exportMarkdown(page);
  assert.ok(emptied.includes('Area') && !emptied.includes('$'), emptied);
  assert.deepEqual(session.errors, []);
  await session.close();
});
