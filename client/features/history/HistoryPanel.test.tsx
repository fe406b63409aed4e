// @vitest-environment jsdom
import type { Editor, JSONContent } from '@tiptap/core';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { VersionSummary } from '../../../common/api/versions.ts';
import { ToastContext, type ToastApi } from '../../components/toastContext.ts';
import { createApiClient } from '../../lib/api.ts';
import type * as Download from '../../lib/download.ts';
import { unchunked } from '../editor/chunks/chunks.ts';
import { collabEditor, replicas } from '../live/collab/test/testEditors.ts';
import { HistoryPanel } from './HistoryPanel.tsx';
import { createVersionsApi } from './versionsApi.ts';

vi.mock('../../lib/download.ts', async (original) => ({
  ...(await original<typeof Download>()),
  downloadText: vi.fn(),
}));
const { downloadText } = await import('../../lib/download.ts');

const DOC = '6f1c1f52-1d7e-4f43-9a4b-0a0c7b1d2e3f';
const BASE = `/api/documents/${DOC}/versions`;
const NOW = new Date(2026, 2, 10, 18, 0);
const ada = { id: 'u-ada', name: 'Ada' };
const bea = { id: 'u-bea', name: 'Bea' };

function summary(id: string, at: Date, extra: Partial<VersionSummary> = {}): VersionSummary {
  return {
    id,
    createdAt: at.toISOString(),
    kind: 'auto',
    name: null,
    keptBy: null,
    authors: [ada],
    added: 10,
    removed: 2,
    ...extra,
  };
}

const para = (text: string): JSONContent => ({
  type: 'paragraph',
  content: [{ type: 'text', text }],
});
const docOf = (...blocks: JSONContent[]): JSONContent => ({ type: 'doc', content: blocks });

type Handler = (body: unknown) => { status?: number; json: unknown };

/** A fetch double at the edge: answers `METHOD path` from `routes`, and records each call. */
function server(routes: Record<string, Handler>) {
  const calls: { key: string; body: unknown }[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${String(input)}`;
    const body: unknown = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ key, body });
    const handler = routes[key];
    const answer = handler
      ? handler(body)
      : {
          status: 404,
          json: { error: { code: 'not_found', message: 'There is no such version.' } },
        };
    return new Response(JSON.stringify(answer.json), {
      status: answer.status ?? 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  const client = createApiClient({
    fetch,
    loadSchemas: () => import('../../lib/apiSchemas.ts'),
    onUnauthenticated: () => undefined,
  });
  return { api: createVersionsApi(client), calls };
}

let host: HTMLElement;
const toasts: string[] = [];
const toast: ToastApi = { show: (message) => void toasts.push(message) };
const editors: Editor[] = [];

beforeAll(() => {
  // jsdom has <dialog> without its modal methods.
  HTMLDialogElement.prototype.showModal ??= function showModal(this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close ??= function close(this: HTMLDialogElement) {
    this.open = false;
  };
});

afterEach(() => {
  render(null, host);
  host.remove();
  toasts.length = 0;
  for (const editor of editors.splice(0)) editor.destroy();
  vi.mocked(downloadText).mockClear();
});

async function open(
  routes: Record<string, Handler>,
  options: { editor?: Editor | null; onClose?: () => void } = {},
) {
  const { api, calls } = server(routes);
  host = document.createElement('div');
  document.body.append(host);
  await act(() =>
    render(
      <ToastContext.Provider value={toast}>
        <HistoryPanel
          documentId={DOC}
          title="Notes"
          editor={options.editor ?? null}
          onClose={options.onClose ?? (() => undefined)}
          api={api}
          now={() => NOW}
        />
      </ToastContext.Provider>,
      host,
    ),
  );
  return calls;
}

/** Waits, letting effects, timers and promises run, until `check` passes. */
async function until(check: () => void) {
  for (let i = 0; ; i += 1) {
    try {
      check();
      return;
    } catch (error) {
      if (i > 300) throw error;
      await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
    }
  }
}

const text = () => host.textContent ?? '';
const button = (name: string) => {
  const found = [...host.querySelectorAll('button')].find(
    (element) => (element.getAttribute('aria-label') ?? element.textContent) === name,
  );
  if (!found) throw new Error(`no button ${name}`);
  return found;
};
const rows = () => [...host.querySelectorAll('.ink-history__version')];
const click = (element: HTMLElement) => act(() => element.click());

async function type(label: string, value: string) {
  const labelElement = [...host.querySelectorAll('label')].find((l) => l.textContent === label);
  const input = document.getElementById(labelElement?.htmlFor ?? '') as HTMLInputElement | null;
  if (!input) throw new Error(`no field ${label}`);
  await act(() => {
    input.value = value;
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

async function submit() {
  await act(() => {
    host.querySelector('form')?.requestSubmit();
  });
}

const listOf =
  (versions: VersionSummary[], next: string | null = null) =>
  () => ({
    json: { versions, next },
  });

describe('HistoryPanel', () => {
  it('lists versions by day with time, name or kind, authors and size, and shows more', async () => {
    const named = summary('9', new Date(2026, 2, 10, 14, 5), {
      kind: 'named',
      name: 'Sent to legal',
      keptBy: ada,
      authors: [ada, bea],
      added: 1200,
      removed: 3,
    });
    const restore = summary('8', new Date(2026, 2, 9, 9, 30), { kind: 'restore', keptBy: bea });
    const older = summary('4', new Date(2026, 1, 20, 11, 0), { authors: [bea] });
    const calls = await open({
      [`GET ${BASE}`]: listOf([named, restore], '8'),
      [`GET ${BASE}?before=8`]: listOf([older]),
    });
    await until(() => expect(rows()).toHaveLength(2));
    const days = [...host.querySelectorAll('.ink-history__day h3')].map((h) => h.textContent);
    expect(days).toEqual(['Today', 'Yesterday']);
    expect(rows()[0]?.textContent).toContain('Sent to legal');
    expect(rows()[0]?.textContent).toContain('Ada and Bea');
    expect(rows()[0]?.textContent).toContain(`+${(1200).toLocaleString()} \u22123`);
    expect(rows()[0]?.textContent).toContain(
      new Date(2026, 2, 10, 14, 5).toLocaleTimeString(undefined, {
        hour: 'numeric',
        minute: '2-digit',
      }),
    );
    expect(rows()[1]?.textContent).toContain('Before restore');
    await click(button('Show more'));
    await until(() => expect(rows()).toHaveLength(3));
    expect(calls.map((call) => call.key)).toContain(`GET ${BASE}?before=8`);
    expect(rows()[2]?.textContent).toContain('Bea');
    expect(host.querySelectorAll('.ink-history__day')).toHaveLength(3);
    expect(() => button('Show more')).toThrow();
  });

  it('explains an empty history in words', async () => {
    await open({ [`GET ${BASE}`]: listOf([]) });
    await until(() => expect(text()).toContain('No versions yet.'));
    expect(text()).toContain('name the current version to keep it now');
  });

  it('says inside the panel when the list could not be loaded, and tries again', async () => {
    let fail = true;
    await open({
      [`GET ${BASE}`]: () =>
        fail
          ? { status: 503, json: { error: { code: 'unavailable', message: 'Try later.' } } }
          : { json: { versions: [summary('1', NOW)], next: null } },
    });
    await until(() => expect(host.querySelector('[role="alert"]')?.textContent).toBeTruthy());
    fail = false;
    await click(button('Try again'));
    await until(() => expect(rows()).toHaveLength(1));
  });

  it('names the current version, keeping the typed name when the server refuses', async () => {
    const kept = summary('12', NOW, { kind: 'named', name: 'Draft one', keptBy: ada });
    let refuse = true;
    const calls = await open({
      [`GET ${BASE}`]: listOf([summary('11', NOW)]),
      [`POST ${BASE}`]: () =>
        refuse
          ? { status: 400, json: { error: { code: 'invalid_request', message: 'Too long.' } } }
          : { status: 201, json: { version: kept } },
    });
    await until(() => expect(rows()).toHaveLength(1));
    await click(button('Name current version…'));
    await type('Name of the current version', '  Draft one ');
    await submit();
    await until(() => expect(text()).toContain('Too long.'));
    expect(calls.find((call) => call.key === `POST ${BASE}`)?.body).toEqual({ name: 'Draft one' });
    refuse = false;
    await submit();
    await until(() => expect(rows()).toHaveLength(2));
    expect(rows()[0]?.textContent).toContain('Draft one');
  });

  it('shows a version read-only as the editor draws it, and renames it', async () => {
    const version = summary('7', NOW);
    const table: JSONContent = {
      type: 'table',
      content: [
        {
          type: 'tableRow',
          content: [{ type: 'tableHeader', content: [para('Cell text')] }],
        },
      ],
    };
    const calls = await open({
      [`GET ${BASE}`]: listOf([version]),
      [`GET ${BASE}/7`]: () => ({
        json: { version, content: docOf(para('Old words'), table) },
      }),
      [`PATCH ${BASE}/7`]: () => ({
        json: { version: { ...version, name: 'Kept', kind: 'auto' } },
      }),
    });
    await until(() => expect(rows()).toHaveLength(1));
    await click(rows()[0] as HTMLElement);
    await until(() => expect(host.querySelector('.ink-history__view .ProseMirror')).not.toBeNull());
    const shown = host.querySelector('.ink-history__view .ProseMirror') as HTMLElement;
    await until(() => expect(shown.textContent).toContain('Old words'));
    expect(shown.getAttribute('contenteditable')).toBe('false');
    expect(shown.querySelector('table')?.textContent).toContain('Cell text');
    await click(button('Name…'));
    await type('Name of this version', 'Kept');
    await submit();
    await until(() => expect(rows()[0]?.textContent).toContain('Kept'));
    expect(calls.find((call) => call.key === `PATCH ${BASE}/7`)?.body).toEqual({ name: 'Kept' });
    expect(button('Rename…')).toBeTruthy();
  });

  it('keeps hostile HTML in a version confined: no script runs, no handler is kept', async () => {
    const version = summary('3', NOW);
    const html =
      '<div>shown</div><script>window.__historyPwned = 1</script>' +
      '<img src="x" onerror="window.__historyPwned = 2"><a href="javascript:alert(1)">link</a>';
    await open({
      [`GET ${BASE}`]: listOf([version]),
      [`GET ${BASE}/3`]: () => ({
        json: { version, content: docOf({ type: 'htmlBlock', attrs: { html } }, para('after')) },
      }),
    });
    await until(() => expect(rows()).toHaveLength(1));
    await click(rows()[0] as HTMLElement);
    await until(() =>
      expect(host.querySelector('.ink-history__view')?.textContent).toContain('after'),
    );
    const view = host.querySelector('.ink-history__view') as HTMLElement;
    await until(() => expect(view.textContent).toContain('shown'));
    expect(view.querySelector('script')).toBeNull();
    expect(view.querySelector('[onerror]')).toBeNull();
    expect(view.querySelector('a[href^="javascript"]')).toBeNull();
    expect((window as { __historyPwned?: number }).__historyPwned).toBeUndefined();
  });

  it('exports a version as Markdown named by the title and the time it was kept', async () => {
    const version = summary('5', new Date(2026, 2, 1, 10, 5));
    await open({
      [`GET ${BASE}`]: listOf([version]),
      [`GET ${BASE}/5`]: () => ({ json: { version, content: docOf(para('Exported words')) } }),
    });
    await until(() => expect(rows()).toHaveLength(1));
    await click(rows()[0] as HTMLElement);
    await until(() => expect(button('Export as Markdown')).toBeTruthy());
    await click(button('Export as Markdown'));
    await until(() => expect(downloadText).toHaveBeenCalled());
    const [name, markdown] = vi.mocked(downloadText).mock.calls[0]!;
    expect(name).toBe('Notes (2026-03-01 10.05).md');
    expect(markdown).toContain('Exported words');
  });

  it('restores into the live document after the server kept the state of now, then closes', async () => {
    const [doc] = replicas(docOf(para('Now text'), para('Shared')), 1);
    const editor = collabEditor(doc!);
    editors.push(editor);
    const version = summary('6', new Date(2026, 2, 10, 9, 15));
    const onClose = vi.fn();
    let textWhenKept = '';
    const calls = await open(
      {
        [`GET ${BASE}`]: listOf([version]),
        [`GET ${BASE}/6`]: () => ({
          json: { version, content: docOf(para('Then text'), para('Shared')) },
        }),
        [`POST ${BASE}`]: () => {
          textWhenKept = unchunked(editor.state.doc).textContent;
          return { status: 201, json: { version: summary('10', NOW, { kind: 'restore' }) } };
        },
      },
      { editor, onClose },
    );
    await until(() => expect(rows()).toHaveLength(1));
    await click(rows()[0] as HTMLElement);
    await until(() => expect(button('Restore this version')).toBeTruthy());
    await click(button('Restore this version'));
    await until(() => expect(onClose).toHaveBeenCalled());
    expect(calls.find((call) => call.key === `POST ${BASE}`)?.body).toEqual({ restoring: '6' });
    expect(textWhenKept).toBe('Now textShared');
    expect(unchunked(editor.state.doc).textContent).toBe('Then textShared');
    expect(toasts).toEqual([
      `Restored the version of ${new Date(2026, 2, 10, 9, 15).toLocaleString(undefined, {
        month: 'short',
        day: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
      })}`,
    ]);
  });

  it('restores nothing and says why when the live document cannot be written', async () => {
    const [doc] = replicas(docOf(para('Now text')), 1);
    const editor = collabEditor(doc!);
    editors.push(editor);
    editor.setEditable(false);
    const version = summary('6', NOW);
    const calls = await open(
      {
        [`GET ${BASE}`]: listOf([version]),
        [`GET ${BASE}/6`]: () => ({ json: { version, content: docOf(para('Then')) } }),
      },
      { editor },
    );
    await until(() => expect(rows()).toHaveLength(1));
    await click(rows()[0] as HTMLElement);
    await until(() => expect(button('Restore this version')).toBeTruthy());
    await click(button('Restore this version'));
    await until(() => expect(text()).toContain("can't be changed right now"));
    expect(calls.some((call) => call.key === `POST ${BASE}`)).toBe(false);
    expect(unchunked(editor.state.doc).textContent).toBe('Now text');
  });

  it('offers no restore without a live editor', async () => {
    const version = summary('6', NOW);
    await open({
      [`GET ${BASE}`]: listOf([version]),
      [`GET ${BASE}/6`]: () => ({ json: { version, content: docOf(para('Then')) } }),
    });
    await until(() => expect(rows()).toHaveLength(1));
    await click(rows()[0] as HTMLElement);
    await until(() => expect(button('Export as Markdown')).toBeTruthy());
    expect(() => button('Restore this version')).toThrow();
  });

  it('compares two versions in place, older to newer, and steps through the changes', async () => {
    const newer = summary('9', NOW);
    const older = summary('5', new Date(2026, 2, 10, 9, 0));
    await open({
      [`GET ${BASE}`]: listOf([newer, older]),
      [`GET ${BASE}/9`]: () => ({
        json: { version: newer, content: docOf(para('Kept line'), para('The red fox')) },
      }),
      [`GET ${BASE}/5`]: () => ({
        json: {
          version: older,
          content: docOf(para('Gone line'), para('Kept line'), para('The brown fox')),
        },
      }),
    });
    await until(() => expect(rows()).toHaveLength(2));
    await click(rows()[0] as HTMLElement);
    await until(() => expect(host.querySelector('select')).toBeTruthy());
    const select = host.querySelector('select')!;
    // The document now is no choice without an editor.
    expect([...select.options].map((option) => option.value)).toEqual(['', '5']);
    await until(() => expect(text()).toContain('The red fox'));
    await act(() => {
      select.value = '5';
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await until(() => expect(text()).toContain('2 changes'));
    // The count and the list first, the compared document drawn over the version a frame later.
    const prose = host.querySelector('.ink-history__document .ink-prose')!;
    await until(() => expect(prose.getAttribute('aria-label')).toMatch(/^Changes from /));
    expect(text()).not.toContain('Drawing the changes');
    // The newer is drawn, with what the older had put back and marked removed.
    expect(prose.textContent).toBe('Gone lineKept lineThe brownred fox');
    const marked = (kind: string) =>
      [...prose.querySelectorAll(`.ink-diff--${kind}`)].map((element) => element.textContent);
    expect(marked('deleted')).toEqual(['Gone line', 'brown']);
    expect(marked('inserted')).toEqual(['red']);
    await click(button('Next change'));
    expect(text()).toContain('1 of 2');
    expect([...prose.querySelectorAll('.ink-diff--current')].map((e) => e.textContent)).toEqual([
      'Gone line',
    ]);
    await click(button('Next change'));
    expect(text()).toContain('2 of 2');
    expect([...prose.querySelectorAll('.ink-diff--current')].map((e) => e.textContent)).toEqual([
      'brown',
      'red',
    ]);
    const listed = [...host.querySelectorAll('.ink-compare__change')].map((b) => b.textContent);
    expect(listed).toEqual([
      'Removed \u201cGone line\u201d',
      'Changed \u201cbrown\u201d to \u201cred\u201d',
    ]);
    // Compared with nothing again: the version as it is, no change drawn on it.
    await act(() => {
      select.value = '';
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await until(() => expect(prose.textContent).toBe('Kept lineThe red fox'));
    expect(prose.querySelectorAll('.ink-diff')).toHaveLength(0);
  });

  it('compares a version with the document now in the live editor', async () => {
    const [doc] = replicas(docOf(para('Now text'), para('Shared')), 1);
    const editor = collabEditor(doc!);
    editors.push(editor);
    const version = summary('3', NOW);
    await open(
      {
        [`GET ${BASE}`]: listOf([version]),
        [`GET ${BASE}/3`]: () => ({ json: { version, content: docOf(para('Shared')) } }),
      },
      { editor },
    );
    await until(() => expect(rows()).toHaveLength(1));
    await click(rows()[0] as HTMLElement);
    await until(() => expect(host.querySelector('select')).toBeTruthy());
    const select = host.querySelector('select')!;
    await act(() => {
      select.value = 'now';
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await until(() => expect(text()).toContain('1 change'));
    const prose = host.querySelector('.ink-history__document .ink-prose')!;
    await until(() => expect(prose.getAttribute('aria-label')).toMatch(/to now$/));
    expect([...prose.querySelectorAll('.ink-diff--inserted')].map((e) => e.textContent)).toEqual([
      'Now text',
    ]);
    expect(text()).not.toContain('These versions differ too much');
  });

  it('colours who wrote what, in a version and in the document now, from the server record', async () => {
    const version = summary('6', NOW);
    const calls = await open({
      [`GET ${BASE}`]: listOf([version]),
      [`GET ${BASE}/6`]: () => ({ json: { version, content: docOf(para('Ada wrote this')) } }),
      [`GET ${BASE}/6/authorship`]: () => ({
        json: {
          content: docOf(para('Ada wrote this. Bea added that.')),
          authors: [ada, bea],
          // Positions inside the block: "Ada wrote this." is 0..15.
          runs: [
            [0, 0, 15, 0],
            [0, 15, 30, 1],
            [0, 30, 31, -1],
          ],
        },
      }),
      [`GET /api/documents/${DOC}/authorship`]: () => ({
        json: { content: docOf(para('Only Bea now')), authors: [bea], runs: [[0, 0, 12, 0]] },
      }),
    });
    await until(() => expect(rows()).toHaveLength(1));
    await click(rows()[0] as HTMLElement);
    await until(() => expect(() => button('Who wrote what')).not.toThrow());
    await click(button('Who wrote what'));
    await until(() => expect(host.querySelector('.ink-authorship__key')).toBeTruthy());
    const prose = () => host.querySelector('.ink-history__document .ink-prose')!;
    const coloured = (index: string) =>
      [...prose().querySelectorAll(`.ink-author--${index}`)].map((e) => e.textContent);
    expect(coloured('0')).toEqual(['Ada wrote this.']);
    expect(coloured('1')).toEqual([' Bea added that']);
    expect(coloured('unknown')).toEqual(['.']);
    expect(prose().querySelector('.ink-author--1')?.getAttribute('title')).toBe('Written by Bea');
    const key = [...host.querySelectorAll('.ink-authorship__key li')].map((li) => li.textContent);
    expect(key).toEqual(['Ada48%', 'Bea48%', 'Unknown3%']);

    await click(button('Who wrote what now'));
    await until(() => expect(text()).toContain('The document now'));
    await until(() => expect(coloured('0')).toEqual(['Only Bea now']));
    expect(calls.map((call) => call.key)).toContain(`GET /api/documents/${DOC}/authorship`);
  });

  it('reads a version once while it is shown, compared and shown again', async () => {
    const newer = summary('9', NOW);
    const older = summary('5', new Date(2026, 2, 10, 9, 0));
    const calls = await open({
      [`GET ${BASE}`]: listOf([newer, older]),
      [`GET ${BASE}/9`]: () => ({ json: { version: newer, content: docOf(para('New')) } }),
      [`GET ${BASE}/5`]: () => ({ json: { version: older, content: docOf(para('Old')) } }),
    });
    await until(() => expect(rows()).toHaveLength(2));
    await click(rows()[0] as HTMLElement);
    await until(() => expect(host.querySelector('select')).toBeTruthy());
    const select = host.querySelector('select')!;
    await act(() => {
      select.value = '5';
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await until(() => expect(text()).toContain('1 change'));
    await click(rows()[1] as HTMLElement);
    await until(() =>
      expect(host.querySelector('.ink-history__document')?.textContent).toBe('Old'),
    );
    await click(rows()[0] as HTMLElement);
    await until(() =>
      expect(host.querySelector('.ink-history__document')?.textContent).toBe('New'),
    );
    const reads = calls.map((call) => call.key).filter((key) => /\/versions\/\d+$/.test(key));
    expect(reads).toEqual([`GET ${BASE}/9`, `GET ${BASE}/5`]);
  });
});
