import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { apiHeaders, documentIdOf, keepTyping, saved, textOf } from './collabPage.ts';
import { dangerousDom, editorLocator, importMarkdown, scriptCalls } from './editorPage.ts';
import { XSS_CASES } from './hostileContent.ts';
import { appUrl, useBrowser } from './harness.ts';
import { person as signUpPerson } from './people.ts';

/*
 * Version history from the browser (docs/PRODUCT.md "Version history"): the owner names a
 * version, an editor writes on, the owner looks at the named version (hostile raw HTML in it stays
 * inert) and restores it while the editor keeps typing; a viewer has no history at all.
 */

const browser = useBrowser();

const person = (name: string) => signUpPerson(browser(), name);

async function shareThroughApi(owner: Page, id: string, email: string, role: string) {
  const res = await owner.request.put(`${appUrl()}/api/documents/${id}/sharing/people`, {
    headers: apiHeaders(),
    data: { email, role },
  });
  assert.equal(res.status(), 200);
}

const openHistory = async (page: Page) => {
  await page.getByRole('button', { name: 'History', exact: true }).click();
  const panel = page.getByRole('dialog', { name: 'Version history' });
  await panel.waitFor();
  return panel;
};

const count = (text: string, part: string) => text.split(part).length - 1;

/**
 * What the history view draws of a version's content: the document and the list of changes.
 * Not the panel's own controls ("Compare with" sits in a form of its own, ShownVersion.tsx).
 */
const SHOWN_CONTENT = '.ink-history__view :is(.ProseMirror, .ink-compare__changes)';

test('a named version is shown inert, restored while an editor types, and undone in one step', async () => {
  const owner = await person('Olive Owner');
  const editor = await person('Eddie Editor');
  const viewer = await person('Vera Viewer');
  try {
    // Raw HTML from DOMPurify's payloads, kept in the named version.
    const hostile = XSS_CASES.slice(0, 12)
      .map((c) => c.payload)
      .join('\n\n');
    await importMarkdown(owner.page, `Plans for spring.\n\n${hostile}\n`, 'plans.md');
    await saved(owner.page);
    const id = documentIdOf(owner.page);
    await shareThroughApi(owner.page, id, editor.account.email, 'editor');
    await shareThroughApi(owner.page, id, viewer.account.email, 'viewer');

    let panel = await openHistory(owner.page);
    await panel.getByRole('button', { name: 'Name current version…' }).click();
    await panel.getByLabel('Name of the current version').fill('Sent to legal');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await panel.getByRole('button', { name: /Sent to legal/ }).waitFor();
    await owner.page.keyboard.press('Escape');

    await editor.page.goto(`${appUrl()}/d/${id}`);
    await editorLocator(editor.page).getByText('Plans for spring.').waitFor();
    await editorLocator(editor.page).getByText('Plans for spring.').click();
    await editor.page.keyboard.press('End');
    await editor.page.keyboard.type(' Eddie’s addition.');
    await saved(editor.page);

    panel = await openHistory(owner.page);
    await panel.getByRole('button', { name: /Sent to legal/ }).click();
    const shown = panel.locator('.ink-history__view .ProseMirror');
    await shown.getByText('Plans for spring.').waitFor();
    assert.equal(await shown.getAttribute('contenteditable'), 'false');
    assert.equal(await shown.getByText('Eddie’s addition.').count(), 0);
    assert.deepEqual(await dangerousDom(owner.page, SHOWN_CONTENT), []);

    // Compared with the document now (in a worker, under the page's CSP): Eddie's words are
    // marked added in place, and the hostile HTML stays inert in the comparison too.
    const compareWith = panel.getByLabel('Compare with');
    await compareWith.selectOption('now');
    await panel.locator('.ink-diff--inserted', { hasText: 'Eddie’s addition.' }).waitFor();
    await panel.getByText('1 change ·').waitFor();
    assert.deepEqual(await dangerousDom(owner.page, SHOWN_CONTENT), []);
    await compareWith.selectOption('');
    await shown.getByText('Plans for spring.').waitFor();

    // Who wrote what now: each writer's text named from the server's record of their sockets.
    await panel.getByRole('button', { name: 'Who wrote what now' }).click();
    const written = panel.locator('.ink-history__view .ProseMirror');
    await written.locator('[title="Written by Eddie Editor"]').first().waitFor();
    assert.match(
      (await written.locator('[title="Written by Eddie Editor"]').allTextContents()).join(''),
      /Eddie’s addition\./,
    );
    assert.match(
      (await written.locator('[title="Written by Olive Owner"]').allTextContents()).join(''),
      /Plans for spring\./,
    );
    await panel.getByRole('button', { name: /Sent to legal/ }).click();
    await shown.getByText('Plans for spring.').waitFor();

    // Eddie goes on typing in the same paragraph while the owner restores.
    await editorLocator(editor.page).getByText('Plans for spring.').click();
    await editor.page.keyboard.press('End');
    const typing = keepTyping(editor.page);
    await new Promise((resolve) => setTimeout(resolve, 400));
    await panel.getByRole('button', { name: 'Restore this version' }).click();
    await owner.page.getByText(/^Restored the version of /).waitFor();
    typing.stop();
    const typed = await typing.done;
    await saved(editor.page);
    await saved(owner.page);

    // Both copies agree: the version's text once, Eddie's earlier sentence gone, and the words
    // he typed after the restore kept.
    const lastWord = typed.trim().split(' ').at(-1)!;
    await owner.page.waitForFunction(
      (word) => document.querySelector('.ProseMirror')?.textContent?.includes(word),
      lastWord,
    );
    const ownerText = await textOf(owner.page);
    assert.equal(await textOf(editor.page), ownerText);
    assert.equal(count(ownerText, 'Plans for spring.'), 1, ownerText);
    assert.equal(count(ownerText, 'Eddie’s addition.'), 0, ownerText);
    assert.ok(ownerText.includes(lastWord), ownerText);

    // One undo step of the owner's brings back what the restore replaced.
    await editorLocator(owner.page).click();
    await owner.page.keyboard.press('Control+z');
    await owner.page.waitForFunction(() =>
      document.querySelector('.ProseMirror')?.textContent?.includes('Eddie’s addition.'),
    );
    assert.equal(count(await textOf(owner.page), 'Plans for spring.'), 1);

    // The state before the restore was kept first.
    panel = await openHistory(owner.page);
    await panel.getByRole('button', { name: /Before restore/ }).waitFor();
    await owner.page.keyboard.press('Escape');

    // A viewer has no History, and the API answers as if the document had none.
    await viewer.page.goto(`${appUrl()}/d/${id}`);
    await viewer.page.getByText('View only').waitFor();
    assert.equal(
      await viewer.page.getByRole('button', { name: 'History', exact: true }).count(),
      0,
    );
    const refused = await viewer.page.request.get(`${appUrl()}/api/documents/${id}/versions`);
    assert.equal(refused.status(), 404);

    // The payloads' made-up image addresses fail to load, as they should; nothing else may fail.
    const thrown = (errors: string[]) =>
      errors.filter((error) => !error.includes('Failed to load resource'));
    for (const someone of [owner, editor, viewer]) {
      assert.deepEqual(await scriptCalls(someone.page), [], someone.account.name);
      assert.deepEqual(thrown(someone.errors), [], someone.account.name);
      assert.deepEqual(someone.apiFailures, [], someone.account.name);
    }
  } finally {
    await Promise.all([owner, editor, viewer].map((someone) => someone.context.close()));
  }
});
