import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { caretAtEnd, documentIdOf, keepTyping, saved, waitForText } from './collabPage.ts';
import { editorLocator } from './editorPage.ts';
import type { TestAccount } from './auth.ts';
import { appUrl, useBrowser } from './harness.ts';
import { person as signUpPerson, type Person } from './people.ts';

/*
 * Sharing from the browser (docs/PRODUCT.md "Sharing"): the owner shares through the Share
 * dialog by address, the other person (a browser context of their own, signed up on the embedded
 * provider) finds the document under "Shared with me", and their role decides what they may do.
 */

const browser = useBrowser();

/** Someone signed up in a fresh context, on the app's home page. */
const person = (name: string) => signUpPerson(browser(), name);

/** An owner with a new document reading `text`, stored. */
async function ownerWithDocument(text: string): Promise<Person> {
  const owner = await person('Olive Owner');
  await owner.page.getByRole('button', { name: 'New document' }).first().click();
  await editorLocator(owner.page).waitFor();
  await saved(owner.page);
  await caretAtEnd(owner.page);
  await owner.page.keyboard.type(text);
  await saved(owner.page);
  return owner;
}

/** The owner shares the open document with `with` through the Share dialog. */
async function share(owner: Page, withAccount: TestAccount, role: 'Viewer' | 'Editor') {
  await owner.getByRole('button', { name: 'Share', exact: true }).click();
  const dialog = owner.getByRole('dialog', { name: 'Share' });
  await dialog.getByLabel('Add someone by e-mail address').fill(withAccount.email);
  // The account's name shows before anything is shared.
  await dialog.getByText(`${withAccount.name} · ${withAccount.email}`).waitFor();
  await dialog.getByLabel('Role to give').selectOption({ label: role });
  await dialog.getByRole('button', { name: 'Share', exact: true }).click();
  await dialog.getByLabel(`Role of ${withAccount.name}`).waitFor();
  return dialog;
}

test('an editor finds a shared document under Shared with me, types live, and turns read-only once removed', async () => {
  const owner = await ownerWithDocument('Plans for spring.');
  const editor = await person('Eddie Editor');
  try {
    const id = documentIdOf(owner.page);
    const dialog = await share(owner.page, editor.account, 'Editor');

    await editor.page.reload();
    const sharedList = editor.page.getByRole('list', { name: 'Shared with me' });
    await sharedList.getByText('Shared by Olive Owner').waitFor();
    await sharedList.getByRole('link').first().click();
    await editor.page.waitForURL(`**/d/${id}`);
    await editorLocator(editor.page).getByText('Plans for spring.').waitFor();
    // An editor has no Share button and no View only label.
    assert.equal(await editor.page.getByRole('button', { name: 'Share', exact: true }).count(), 0);
    assert.equal(await editor.page.getByText('View only').count(), 0);

    await caretAtEnd(editor.page);
    await editor.page.keyboard.type(' Tulips.');
    await waitForText(owner.page, 'Plans for spring. Tulips.');

    // Removed while typing: the page stops editing and says why.
    const typing = keepTyping(editor.page);
    await owner.page.waitForFunction(() =>
      document.querySelector('.ProseMirror')?.textContent?.includes(' w2'),
    );
    await dialog.getByRole('button', { name: `Remove ${editor.account.name}` }).click();
    await editor.page.getByText(/you no longer have access/).waitFor({ timeout: 20_000 });
    typing.stop();
    await typing.done;
    await editor.page.locator('.ProseMirror[contenteditable=false]').waitFor();
    assert.deepEqual(owner.errors, []);
  } finally {
    await owner.context.close();
    await editor.context.close();
  }
});

test('a viewer reads with "View only" and cannot type, rename, trash or share', async () => {
  const owner = await ownerWithDocument('Read me only.');
  const viewer = await person('Vera Viewer');
  try {
    const id = documentIdOf(owner.page);
    await share(owner.page, viewer.account, 'Viewer');

    await viewer.page.goto(`${appUrl()}/d/${id}`);
    await viewer.page.locator('.ProseMirror').getByText('Read me only.').waitFor();
    await viewer.page.getByText('View only', { exact: true }).waitFor();
    await viewer.page.locator('.ProseMirror').click();
    await viewer.page.keyboard.type('Nope');
    assert.equal(await viewer.page.locator('.ProseMirror[contenteditable=true]').count(), 0);
    assert.doesNotMatch((await viewer.page.locator('.ProseMirror').textContent()) ?? '', /Nope/);
    assert.equal(await viewer.page.getByRole('button', { name: 'Share', exact: true }).count(), 0);
    await viewer.page.getByRole('button', { name: 'Document menu' }).click();
    assert.equal(await viewer.page.getByRole('menuitem', { name: 'Move to trash' }).count(), 0);
    await viewer.page.getByRole('menuitem', { name: 'Copy as Markdown' }).waitFor();
    await viewer.page.keyboard.press('Escape');
    assert.deepEqual(viewer.errors, []);
  } finally {
    await owner.context.close();
    await viewer.context.close();
  }
});

test("a link that was turned off says it doesn't work any more", async () => {
  const reader = await person('Rae Reader');
  try {
    await reader.page.goto(`${appUrl()}/s/${'A'.repeat(43)}`);
    await reader.page.getByRole('heading', { name: "This link doesn't work any more" }).waitFor();
    await reader.page.getByRole('link', { name: 'Go to your documents' }).click();
    await reader.page.waitForURL(`${appUrl()}/`);
  } finally {
    await reader.context.close();
  }
});
