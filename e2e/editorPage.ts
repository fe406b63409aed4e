import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { signUp } from './auth.ts';
import { appUrl, collectPageErrors } from './harness.ts';

/** An open editor in its own browser context (fresh storage, clipboard allowed). */
export interface EditorSession {
  context: BrowserContext;
  page: Page;
  /** Uncaught errors and console errors seen so far. */
  errors: string[];
  close(): Promise<void>;
}

/**
 * Replaces `alert`, `confirm`, `prompt` and `print` with stubs that record their calls in
 * `window.__scriptRan` (read by {@link scriptCalls}), so a test can prove no injected script ran.
 * A string, not a function: tsx would add helpers to a function that do not exist in the page.
 */
export const RECORD_SCRIPT_CALLS = `(() => {
      const calls = [];
      Object.defineProperty(window, '__scriptRan', { value: calls });
      for (const name of ['alert', 'confirm', 'prompt', 'print']) {
        Object.defineProperty(window, name, {
          value: (...args) => { calls.push(name + '(' + args.map(String).join(', ') + ')'); return null; },
        });
      }
    })();`;

/** Opens the app in a fresh context, with {@link RECORD_SCRIPT_CALLS}. */
export async function openEditor(browser: Browser, url = appUrl()): Promise<EditorSession> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
  await context.addInitScript({ content: RECORD_SCRIPT_CALLS });
  const page = await context.newPage();
  // Pages may show images from other hosts, which this sandbox cannot reach.
  const errors = collectPageErrors(page);
  const isUnreachableResource = (error: string) => error.includes('Failed to load resource');
  page.on('dialog', (dialog) => {
    errors.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await page.goto(url);
  await signUp(page);
  await page.getByRole('button', { name: 'New document' }).first().click();
  await editorLocator(page).waitFor({ state: 'visible' });
  // The new document is made in the tab and created in the background: leaving the page before
  // the server has it asks first, which tests that reload or navigate must not meet.
  await page.getByRole('status').getByText('Saved', { exact: true }).waitFor({ timeout: 15_000 });
  return {
    context,
    page,
    get errors() {
      return errors.filter((error) => !isUnreachableResource(error));
    },
    close: () => context.close(),
  };
}

/** The editable document. */
export const editorLocator = (page: Page) => page.locator('.ProseMirror[contenteditable=true]');

/** Waits until every raw-HTML node view has rendered its sanitised content. */
export async function htmlRendered(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelector('[data-html-pending]') === null);
}

/** Calls recorded by the `alert`/`confirm`/`prompt`/`print` stubs. */
export async function scriptCalls(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __scriptRan: string[] }).__scriptRan);
}

/**
 * Selects the document's top-level blocks inside the editor element: the editor keeps them in
 * chunks of about 64 (client/features/editor/chunks).
 */
export const TOP_LEVEL_PARENT = ':scope > .ink-chunk';
export const TOP_LEVEL = `${TOP_LEVEL_PARENT} > *`;

/** True when the document is a single empty paragraph (an import then replaces it unasked). */
export async function isDocumentEmpty(page: Page): Promise<boolean> {
  return editorLocator(page).evaluate((element, selector) => {
    const blocks = element.querySelectorAll(selector);
    return blocks.length === 1 && blocks[0]?.tagName === 'P' && element.textContent === '';
  }, TOP_LEVEL);
}

/** Imports Markdown through the file input; unless the file is refused, waits for the new document it makes. */
export async function importMarkdown(
  page: Page,
  text: string | Buffer,
  name = 'import.md',
  { rejected = false }: { rejected?: boolean } = {},
) {
  const buffer = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  const before = page.url();
  await page
    .getByLabel('Import Markdown file')
    .first()
    .setInputFiles({ name, mimeType: 'text/markdown', buffer });
  if (rejected) return;
  await page.waitForURL((url) => url.href !== before && url.pathname.startsWith('/d/'));
  await editorLocator(page).waitFor({ state: 'visible' });
}

/** Runs an item of the document menu. */
export async function runMenuItem(page: Page, name: string) {
  await page.getByRole('button', { name: 'Document menu' }).click();
  await page.getByRole('menuitem', { name }).click();
}

/** Exports the document through "Export Markdown" and returns the downloaded text. */
export async function exportMarkdown(page: Page): Promise<string> {
  const download = page.waitForEvent('download');
  await runMenuItem(page, 'Export Markdown');
  const path = await (await download).path();
  return readFile(path, 'utf8');
}

/** Dispatches a paste of the given clipboard data at the selection. */
export async function paste(page: Page, data: Record<string, string>) {
  await editorLocator(page).evaluate((element, entries) => {
    const transfer = new DataTransfer();
    for (const [type, value] of Object.entries(entries)) transfer.setData(type, value);
    element.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }),
    );
  }, data);
}

/**
 * Dangerous things left in a part of the page: `on*` attributes, script-running URLs, and
 * elements that run or embed code (a YouTube iframe from youtube-nocookie is allowed).
 */
export async function dangerousDom(page: Page, selector = '.ProseMirror'): Promise<string[]> {
  return page.evaluate((rootSelector) => {
    const found: string[] = [];
    const urlAttributes =
      /^(?:href|src|action|formaction|xlink:href|srcdoc|data|poster|background)$/i;
    const badUrl = /^(?:javascript|vbscript|file|data:(?!image\/(?:gif|png|jpeg|webp);))/i;
    for (const root of document.querySelectorAll(rootSelector)) {
      for (const element of root.querySelectorAll('*')) {
        const tag = element.tagName.toLowerCase();
        if (['script', 'object', 'embed', 'base', 'form', 'meta', 'link'].includes(tag)) {
          found.push(`<${tag}>`);
        }
        if (tag === 'iframe') {
          const src = element.getAttribute('src') ?? '';
          if (!src.startsWith('https://www.youtube-nocookie.com/embed/'))
            found.push(`<iframe ${src}>`);
        }
        for (const attribute of element.attributes) {
          // eslint-disable-next-line no-control-regex -- browsers ignore these around a URL
          const value = attribute.value.replace(/[\u0000-\u0020]/g, '');
          if (/^on/i.test(attribute.name)) found.push(`<${tag} ${attribute.name}>`);
          if (urlAttributes.test(attribute.name) && badUrl.test(value)) {
            found.push(`<${tag} ${attribute.name}="${attribute.value.slice(0, 40)}">`);
          }
        }
      }
    }
    return found;
  }, selector);
}

/** Holds every upload request until the returned function is called. */
export async function holdUploads(page: Page): Promise<() => void> {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/files*', async (route) => {
    await gate;
    await route.continue();
  });
  return () => release();
}

/**
 * Sends the editor a paste or a drop of PNG files drawn in the page, `widths` wide (a canvas
 * filled with one colour), or of `fake` bytes named .png. A drop lands at the end of the first paragraph.
 */
export async function sendFiles(
  page: Page,
  kind: 'paste' | 'drop',
  widths: number[],
  fake?: string,
): Promise<void> {
  await editorLocator(page).evaluate(
    async (editor, { kind, widths, fake }) => {
      const transfer = new DataTransfer();
      for (const [i, width] of widths.entries()) {
        let blob: Blob;
        if (fake !== undefined) {
          blob = new Blob([fake], { type: 'image/png' });
        } else {
          const canvas = document.createElement('canvas');
          canvas.width = width;
          canvas.height = 20;
          const context = canvas.getContext('2d');
          if (context) {
            context.fillStyle = `hsl(${i * 90}, 70%, 50%)`;
            context.fillRect(0, 0, width, 20);
          }
          blob = await new Promise<Blob>((resolve, reject) =>
            canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('no blob'))), 'image/png'),
          );
        }
        transfer.items.add(new File([blob], `shot-${i}.png`, { type: 'image/png' }));
      }
      if (kind === 'paste') {
        editor.dispatchEvent(
          new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }),
        );
        return;
      }
      const target = editor.querySelector('p') ?? editor;
      const box = target.getBoundingClientRect();
      const at = { clientX: box.right - 4, clientY: box.top + box.height / 2 };
      for (const type of ['dragenter', 'dragover', 'drop']) {
        target.dispatchEvent(
          new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true, ...at }),
        );
      }
    },
    { kind, widths, fake },
  );
}
