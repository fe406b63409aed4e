import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../common/api/errors.ts';
import type { GrantedRole, SharingState } from '../common/api/sharing.ts';
import { newAccount, signUp, type TestAccount } from './auth.ts';
import { caretAtEnd, documentIdOf, keepTyping, saved } from './collabPage.ts';
import {
  dangerousDom,
  editorLocator,
  htmlRendered,
  importMarkdown,
  RECORD_SCRIPT_CALLS,
  scriptCalls,
} from './editorPage.ts';
import { collectPageErrors } from './harness.ts';
import { escapes, hostileMarkdown, XSS_CASES } from './hostileContent.ts';
import { useInstances } from './instances.ts';

/*
 * Sharing among three people on two instances (docs/PRODUCT.md "Sharing"): the owner on
 * instance A shares a document holding hostile content with an editor on instance B and a viewer
 * on A, changes the editor's role and then removes them while they type, and publishes it for
 * someone who never signed in. What one person's file holds must not act on anyone else's page.
 */

const instances = useInstances('sharing');

/** One person in the browser of instance `index`, signed up and on the app. */
interface Person {
  account: TestAccount;
  context: BrowserContext;
  page: Page;
  errors: string[];
}

async function personOn(index: number, name: string): Promise<Person> {
  const context = await instances.browser(index).newContext({
    viewport: { width: 1280, height: 900 },
  });
  await context.addInitScript({ content: RECORD_SCRIPT_CALLS });
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await page.goto(`${instances.publicUrl()}/`);
  const account = await signUp(page, newAccount(name));
  return { account, context, page, errors };
}

/** A call of the sharing API as the owner's page would make it. */
async function asOwner(
  owner: Person,
  method: 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  data?: object,
) {
  const res = await owner.context.request.fetch(`${instances.publicUrl()}${path}`, {
    method,
    headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE, Origin: instances.publicUrl() },
    ...(data ? { data } : {}),
  });
  assert.ok(res.ok(), `${method} ${path} answered ${res.status()}`);
  return (await res.json()) as SharingState;
}

const shareWith = (owner: Person, id: string, person: Person, role: GrantedRole) =>
  asOwner(owner, 'PUT', `/api/documents/${id}/sharing/people`, {
    email: person.account.email,
    role,
  });

/** The document as its readers see it, editable or not. */
const documentView = (page: Page) => page.locator('.ProseMirror');

/** Nothing from the shared file ran, or reaches outside the document, on this person's page. */
async function confined(person: Person): Promise<void> {
  await htmlRendered(person.page);
  await person.page.waitForTimeout(60);
  assert.deepEqual(await scriptCalls(person.page), [], 'no script ran');
  assert.deepEqual(await dangerousDom(person.page), [], 'nothing dangerous in the document');
  assert.deepEqual(await escapes(person.page, documentView(person.page)), {
    outside: [],
    onTop: [],
  });
}

test('an owner shares hostile content with an editor and a viewer on two instances, lowers and removes the editor while they type, and publishes it', async () => {
  const olga = await personOn(0, 'Olga Owner');
  const payloads = XSS_CASES.map(({ payload }) => payload).join('\n\n');
  await importMarkdown(olga.page, `Plan:\n\n${hostileMarkdown()}\n\n${payloads}`, 'plan.md');
  await saved(olga.page);
  const id = documentIdOf(olga.page);

  const ed = await personOn(1, 'Ed Editor');
  const vi = await personOn(0, 'Vi Viewer');
  const state = await shareWith(olga, id, ed, 'editor');
  await shareWith(olga, id, vi, 'viewer');
  assert.deepEqual(
    state.people.map(({ name, role }) => [name, role]),
    [['Ed Editor', 'editor']],
  );

  // The editor, on the other instance, types into the owner's document live.
  await ed.page.goto(`${instances.publicUrl()}/d/${id}`);
  await editorLocator(ed.page).getByText('Plan:', { exact: true }).waitFor();
  await confined(ed);
  await editorLocator(ed.page).getByText('Plan:', { exact: true }).click();
  await ed.page.keyboard.press('End');
  await ed.page.keyboard.type(' Ed was here.');
  await saved(ed.page);
  await documentView(olga.page).getByText('Plan: Ed was here.').waitFor({ timeout: 10_000 });

  // The viewer sees it all and can change nothing.
  await vi.page.goto(`${instances.publicUrl()}/d/${id}`);
  await documentView(vi.page).getByText('Plan: Ed was here.').waitFor();
  await confined(vi);
  assert.equal(await editorLocator(vi.page).count(), 0, 'the viewer has no editable document');

  // Lowered while typing: the editor's page turns read-only and says so.
  await caretAtEnd(ed.page);
  const typing = keepTyping(ed.page);
  await asOwner(olga, 'PATCH', `/api/documents/${id}/sharing/people/${state.people[0]!.id}`, {
    role: 'viewer',
  });
  await ed.page.getByText('You can now only view this document.').waitFor({ timeout: 10_000 });
  typing.stop();
  await typing.done;
  await documentView(ed.page).and(ed.page.locator('[contenteditable=false]')).waitFor();

  // Removed: the page stops and says the document is no longer open to them; so does the API.
  await asOwner(olga, 'DELETE', `/api/documents/${id}/sharing/people/${state.people[0]!.id}`);
  await ed.page
    .getByRole('status')
    .getByText("Couldn't save: this document is no longer open to you.")
    .waitFor({ timeout: 10_000 });
  const gone = await ed.context.request.get(`${instances.publicUrl()}/api/documents/${id}`);
  assert.equal(gone.status(), 404);

  // Published: someone who never signed in reads it on instance B, as confined as in the app.
  const { published } = await asOwner(olga, 'PUT', `/api/documents/${id}/sharing/publish`, {});
  assert.ok(published);
  const anonymous = await instances.browser(1).newContext();
  await anonymous.addInitScript({ content: RECORD_SCRIPT_CALLS });
  const reader = await anonymous.newPage();
  const readerErrors = collectPageErrors(reader);
  assert.equal((await reader.goto(published.url))?.status(), 200);
  await reader.getByText('Plan: Ed was here.').waitFor();
  await reader.waitForTimeout(60);
  assert.deepEqual(await scriptCalls(reader), []);
  assert.deepEqual(await dangerousDom(reader, 'article'), []);

  // Images the payloads point at elsewhere cannot load here; the refusals the pages learn from
  // (a 404 once access is gone) are the browser's report of a response, not an error of the page.
  const thrown = (errors: string[]) =>
    errors.filter((error) => !error.includes('Failed to load resource'));
  for (const person of [olga, ed, vi]) {
    assert.deepEqual(thrown(person.errors), [], person.account.name);
  }
  assert.deepEqual(thrown(readerErrors), []);
  await Promise.all([olga, ed, vi].map(({ context }) => context.close()));
  await anonymous.close();
});
