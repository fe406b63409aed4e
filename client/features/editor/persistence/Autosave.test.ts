import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DocumentRecord, SaveResult } from '../../../../common/api/documents.ts';
import { ApiError, NetworkError } from '../../../lib/api.ts';
import { Autosave } from './Autosave.ts';
import type { AutosaveOptions, SaveRequest, Snapshot } from './AutosaveOptions.ts';
import type { SaveStatus } from './saveStatus.ts';
import { FakeDraftStore } from './test/FakeDraftStore.ts';

const ID = 'doc-1';

/** A document the tests edit: the "doc" is a string, compared by value like an immutable node. */
function setup(options: Partial<AutosaveOptions<string>> = {}) {
  const editor: Snapshot<string> = { title: 'T', doc: 'v1' };
  const drafts = new FakeDraftStore();
  const statuses: SaveStatus[] = [];
  const requests: { request: SaveRequest; keepalive: boolean }[] = [];
  const conflicts: DocumentRecord[] = [];
  let version = 1;
  /** How the next sends end; by default they succeed. */
  const outcomes: (() => Promise<SaveResult>)[] = [];
  const send = vi.fn((request: SaveRequest, keepalive: boolean) => {
    requests.push({ request, keepalive });
    const outcome = outcomes.shift();
    if (outcome) return outcome();
    version += 1;
    return Promise.resolve({ id: ID, version, updatedAt: new Date().toISOString() });
  });
  const autosave = new Autosave<string>({
    documentId: ID,
    baseVersion: 1,
    saved: { title: 'T', doc: 'v1' },
    read: () => ({ ...editor }),
    serialize: (doc) => JSON.stringify({ type: 'doc', text: doc }),
    send,
    drafts,
    onStatus: (status) => statuses.push(status),
    onConflict: (current) => conflicts.push(current),
    ...options,
  });
  const type = (doc: string) => {
    editor.doc = doc;
    autosave.edit();
  };
  return { autosave, editor, drafts, statuses, requests, conflicts, outcomes, send, type };
}

const fail = (error: unknown) => () => Promise.reject(error);
const serverCopy: DocumentRecord = {
  id: ID,
  title: 'Theirs',
  version: 9,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-02T00:00:00.000Z',
  deletedAt: null,
  content: { type: 'doc' },
};
const conflict = new ApiError('version_conflict', 'Changed.', 409, {}, serverCopy);

describe('Autosave', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('writes the draft first, then saves a second after the last edit and drops the draft', async () => {
    const { drafts, requests, statuses, type } = setup();
    type('v2');
    expect(statuses.at(-1)).toEqual({ kind: 'saving' });
    await vi.advanceTimersByTimeAsync(300);
    expect(drafts.draft(ID)).toMatchObject({
      baseVersion: 1,
      change: 1,
      json: '{"type":"doc","text":"v2"}',
    });
    expect(requests).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(700);
    expect(requests).toEqual([
      { request: { baseVersion: 1, content: '{"type":"doc","text":"v2"}' }, keepalive: false },
    ]);
    expect(statuses.at(-1)).toEqual({ kind: 'saved' });
    expect(drafts.records.has(ID)).toBe(false);
  });

  it('sends only the title when only the title changed, with the new base version', async () => {
    const { autosave, editor, requests } = setup();
    editor.doc = 'v2';
    autosave.edit();
    await vi.advanceTimersByTimeAsync(1000);
    editor.title = 'New title';
    autosave.edit();
    await vi.advanceTimersByTimeAsync(1000);
    expect(requests[1]?.request).toEqual({ baseVersion: 2, title: 'New title' });
  });

  it('saves at most five seconds after the first edit while typing goes on', async () => {
    const { requests, type } = setup();
    for (let i = 0; i < 24; i += 1) {
      type(`v${i}`);
      await vi.advanceTimersByTimeAsync(250);
    }
    // 6 s of typing with no pause of a second: the first save went at 5 s.
    expect(requests).toHaveLength(1);
  });

  it('keeps one save in flight and saves edits made meanwhile next', async () => {
    const finishers: ((result: SaveResult) => void)[] = [];
    const pending = () => new Promise<SaveResult>((resolve) => finishers.push(resolve));
    const { drafts, outcomes, requests, statuses, type } = setup();
    outcomes.push(pending, pending);
    type('v2');
    await vi.advanceTimersByTimeAsync(1000);
    type('v3');
    await vi.advanceTimersByTimeAsync(3000);
    expect(requests).toHaveLength(1);
    expect(drafts.draft(ID)).toMatchObject({ change: 2, baseVersion: 1 });
    finishers[0]?.({ id: ID, version: 2, updatedAt: '' });
    await vi.advanceTimersByTimeAsync(0);
    // The edit of v3 is not acknowledged: its draft stays, rewritten against version 2.
    expect(requests[1]?.request).toEqual({ baseVersion: 2, content: '{"type":"doc","text":"v3"}' });
    expect(drafts.draft(ID)).toMatchObject({ change: 2, baseVersion: 2 });
    expect(statuses.at(-1)).toEqual({ kind: 'saving' });
    finishers[1]?.({ id: ID, version: 3, updatedAt: '' });
    await vi.advanceTimersByTimeAsync(0);
    expect(drafts.records.has(ID)).toBe(false);
    expect(statuses.at(-1)).toEqual({ kind: 'saved' });
  });

  it('goes offline with the edits kept, backs off, and retries at once when online', async () => {
    const { autosave, drafts, outcomes, requests, statuses, type } = setup();
    outcomes.push(fail(new NetworkError('down')), fail(new NetworkError('down')));
    type('v2');
    await vi.advanceTimersByTimeAsync(1000);
    expect(statuses.at(-1)).toEqual({ kind: 'offline', kept: true });
    await vi.advanceTimersByTimeAsync(2000);
    expect(requests).toHaveLength(2);
    // The second failure doubles the wait to 4 s.
    await vi.advanceTimersByTimeAsync(3000);
    expect(requests).toHaveLength(2);
    autosave.retryNow();
    await vi.advanceTimersByTimeAsync(0);
    expect(requests).toHaveLength(3);
    expect(statuses.at(-1)).toEqual({ kind: 'saved' });
    expect(drafts.records.has(ID)).toBe(false);
  });

  it('says so when offline and the device storage fails too', async () => {
    const { drafts, outcomes, statuses, type } = setup();
    drafts.failing = true;
    outcomes.push(fail(new NetworkError('down')));
    type('v2');
    await vi.advanceTimersByTimeAsync(1000);
    expect(statuses.at(-1)).toEqual({ kind: 'offline', kept: false });
  });

  it('retries a server error after its Retry-After', async () => {
    const { outcomes, requests, statuses, type } = setup();
    outcomes.push(fail(new ApiError('rate_limited', 'Slow down.', 429, {}, undefined, 10)));
    type('v2');
    await vi.advanceTimersByTimeAsync(1000);
    expect(statuses.at(-1)).toEqual({ kind: 'retrying' });
    await vi.advanceTimersByTimeAsync(9000);
    expect(requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(requests).toHaveLength(2);
  });

  it('stops on a refusal that retrying cannot fix, and tries again after the next edit', async () => {
    const { drafts, outcomes, requests, statuses, type } = setup();
    outcomes.push(fail(new ApiError('payload_too_large', 'The document is too large.', 413)));
    type('v2');
    await vi.advanceTimersByTimeAsync(1000);
    expect(statuses.at(-1)).toEqual({ kind: 'failed', message: 'The document is too large.' });
    await vi.advanceTimersByTimeAsync(120_000);
    expect(requests).toHaveLength(1);
    expect(drafts.draft(ID)?.json).toContain('v2');
    type('v3');
    await vi.advanceTimersByTimeAsync(1000);
    expect(requests).toHaveLength(2);
  });

  it('holds saving on a conflict until the writer keeps their copy', async () => {
    const { autosave, conflicts, drafts, outcomes, requests, statuses, type } = setup();
    outcomes.push(fail(conflict));
    type('v2');
    await vi.advanceTimersByTimeAsync(1000);
    expect(statuses.at(-1)).toEqual({ kind: 'conflict' });
    expect(conflicts).toEqual([serverCopy]);
    type('v3');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(requests).toHaveLength(1);
    expect(drafts.draft(ID)?.json).toContain('v3');
    await autosave.keepMine(9);
    // The whole copy goes on top of the server's version.
    expect(requests[1]?.request).toEqual({
      baseVersion: 9,
      title: 'T',
      content: '{"type":"doc","text":"v3"}',
    });
    expect(statuses.at(-1)).toEqual({ kind: 'saved' });
  });

  it("drops the device's edits when the writer takes the server's copy", async () => {
    const { autosave, drafts, editor, outcomes, requests, statuses, type } = setup();
    outcomes.push(fail(conflict));
    type('v2');
    await vi.advanceTimersByTimeAsync(1000);
    editor.doc = 'theirs';
    editor.title = 'Theirs';
    await autosave.takeTheirs(9, { ...editor });
    expect(statuses.at(-1)).toEqual({ kind: 'saved' });
    expect(drafts.records.has(ID)).toBe(false);
    expect(autosave.hasUnsavedEdits).toBe(false);
    type('mine again');
    await vi.advanceTimersByTimeAsync(1000);
    expect(requests[1]?.request).toMatchObject({ baseVersion: 9 });
  });

  it('saves a restored draft at once, title and content', async () => {
    const { requests, statuses } = setup({ saved: null, restoredChange: 4 });
    expect(statuses).toEqual([{ kind: 'saving' }]);
    await vi.advanceTimersByTimeAsync(0);
    expect(requests[0]?.request).toEqual({
      baseVersion: 1,
      title: 'T',
      content: '{"type":"doc","text":"v1"}',
    });
  });

  it('waits for the writer when a restored draft met a newer version', async () => {
    const { autosave, requests, statuses } = setup({
      saved: null,
      restoredChange: 3,
      conflicted: true,
    });
    expect(statuses).toEqual([{ kind: 'conflict' }]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(requests).toHaveLength(0);
    await autosave.keepMine(9);
    expect(requests[0]?.request).toMatchObject({ baseVersion: 9, title: 'T' });
  });

  it('needs no request when the edits were undone', async () => {
    const { drafts, requests, statuses, type } = setup();
    type('v2');
    await vi.advanceTimersByTimeAsync(400);
    type('v1');
    await vi.advanceTimersByTimeAsync(1000);
    expect(requests).toHaveLength(0);
    expect(statuses.at(-1)).toEqual({ kind: 'saved' });
    expect(drafts.records.has(ID)).toBe(false);
  });

  it('sends a keepalive save on pagehide, or only the draft when the save is too large', async () => {
    const small = setup();
    small.type('v2');
    small.autosave.flushOnPageHide();
    expect(small.requests).toEqual([
      { request: { baseVersion: 1, content: '{"type":"doc","text":"v2"}' }, keepalive: true },
    ]);

    const large = setup({ send: () => null });
    large.type('v2');
    large.autosave.flushOnPageHide();
    await vi.advanceTimersByTimeAsync(0);
    expect(large.drafts.draft(ID)?.json).toContain('v2');
    expect(large.autosave.hasUnsavedEdits).toBe(true);
  });

  it('finishes saving after the editor has gone, then stops', async () => {
    const onDisposed = vi.fn();
    const { autosave, editor, requests, type } = setup({ onDisposed });
    type('v2');
    autosave.detach({ ...editor });
    editor.doc = 'changed after detach';
    await vi.advanceTimersByTimeAsync(1000);
    expect(requests[0]?.request.content).toContain('v2');
    expect(onDisposed).toHaveBeenCalledTimes(1);
  });
});

describe('Autosave of a document the server does not have yet', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** An autosave whose create ends as the test says: `finish` or `refuse` the next attempt. */
  function setupCreating(options: Partial<AutosaveOptions<string>> = {}) {
    const attempts: { resolve: (result: SaveResult) => void; reject: (error: unknown) => void }[] =
      [];
    const create = vi.fn(
      () =>
        new Promise<SaveResult>((resolve, reject) => {
          attempts.push({ resolve, reject });
        }),
    );
    const context = setup({ create, ...options });
    const created = { id: ID, version: 1, updatedAt: '' };
    return { ...context, create, attempts, created };
  }

  it('creates the document first and saves edits made meanwhile on top of version 1', async () => {
    const { attempts, create, created, drafts, requests, statuses, type } = setupCreating();
    expect(statuses).toEqual([{ kind: 'saving' }]);
    // Typed before the create went out: it carries the imported copy, the edit comes after.
    type('v2');
    await vi.advanceTimersByTimeAsync(0);
    expect(create).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(10_000);
    // No save before the create is acknowledged; the edit waits in the draft.
    expect(requests).toHaveLength(0);
    expect(drafts.draft(ID)).toMatchObject({ baseVersion: 1, change: 1 });
    expect(drafts.draft(ID)?.json).toContain('v2');
    attempts[0]?.resolve(created);
    await vi.advanceTimersByTimeAsync(1000);
    expect(requests).toEqual([
      { request: { baseVersion: 1, content: '{"type":"doc","text":"v2"}' }, keepalive: false },
    ]);
    expect(statuses.at(-1)).toEqual({ kind: 'saved' });
    expect(drafts.records.has(ID)).toBe(false);
    expect(create).toHaveBeenCalledTimes(1);
  });

  it('counts the document as unsaved until it is created, even after the editor has gone', async () => {
    const onDisposed = vi.fn();
    const onSaved = vi.fn();
    const { attempts, autosave, create, created, editor, requests, statuses } = setupCreating({
      onDisposed,
      onSaved,
    });
    expect(autosave.hasUnsavedEdits).toBe(true);
    expect(autosave.isDrafted).toBe(false);
    // Gone before the create went out: it still goes out.
    autosave.detach({ ...editor });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(create).toHaveBeenCalledTimes(1);
    expect(onDisposed).not.toHaveBeenCalled();
    attempts[0]?.resolve(created);
    await vi.advanceTimersByTimeAsync(0);
    expect(autosave.hasUnsavedEdits).toBe(false);
    expect(onSaved).toHaveBeenCalledWith({ title: 'T', doc: 'v1' }, created);
    expect(onDisposed).toHaveBeenCalledTimes(1);
    expect(requests).toHaveLength(0);
    expect(statuses).toEqual([{ kind: 'saving' }]);
  });

  it('creates again rather than saving edits when the first create did not arrive', async () => {
    const { attempts, autosave, create, created, requests, type } = setupCreating();
    await vi.advanceTimersByTimeAsync(0);
    attempts[0]?.reject(new NetworkError('down'));
    await vi.advanceTimersByTimeAsync(0);
    type('v2');
    await vi.advanceTimersByTimeAsync(1000);
    autosave.retryNow();
    await vi.advanceTimersByTimeAsync(0);
    expect(create).toHaveBeenCalledTimes(2);
    expect(requests).toHaveLength(0);
    attempts[1]?.resolve(created);
    await vi.advanceTimersByTimeAsync(1000);
    expect(requests.map((r) => r.request)).toEqual([
      { baseVersion: 1, content: '{"type":"doc","text":"v2"}' },
    ]);
  });

  it('keeps edits in the draft when the create is refused, and sends nothing more', async () => {
    const onDisposed = vi.fn();
    const { attempts, autosave, create, drafts, editor, requests, statuses, type } = setupCreating({
      onDisposed,
    });
    await vi.advanceTimersByTimeAsync(0);
    type('v2');
    attempts[0]?.reject(new ApiError('payload_too_large', 'The document is too large.', 413));
    await vi.advanceTimersByTimeAsync(0);
    expect(statuses.at(-1)).toEqual({ kind: 'failed', message: 'The document is too large.' });
    type('v3');
    await vi.advanceTimersByTimeAsync(120_000);
    expect(create).toHaveBeenCalledTimes(1);
    expect(requests).toHaveLength(0);
    expect(drafts.draft(ID)?.json).toContain('v3');
    autosave.detach({ ...editor });
    await vi.advanceTimersByTimeAsync(0);
    expect(onDisposed).toHaveBeenCalledTimes(1);
    expect(drafts.draft(ID)).toMatchObject({ baseVersion: 1, change: 2 });
  });

  it('keeps the document on the device while offline and creates it again when online', async () => {
    const { attempts, autosave, create, created, drafts, requests, statuses } = setupCreating();
    await vi.advanceTimersByTimeAsync(0);
    attempts[0]?.reject(new NetworkError('down'));
    await vi.advanceTimersByTimeAsync(0);
    expect(statuses.at(-1)).toEqual({ kind: 'offline', kept: false });
    await vi.advanceTimersByTimeAsync(300);
    // Untouched, it is drafted all the same: a reload would otherwise lose it.
    expect(drafts.draft(ID)).toMatchObject({ baseVersion: 1, json: '{"type":"doc","text":"v1"}' });
    expect(statuses.at(-1)).toEqual({ kind: 'offline', kept: true });
    autosave.retryNow();
    await vi.advanceTimersByTimeAsync(0);
    expect(create).toHaveBeenCalledTimes(2);
    attempts[1]?.resolve(created);
    await vi.advanceTimersByTimeAsync(1000);
    // The draft held nothing the create did not: no save, and the draft goes.
    expect(requests).toHaveLength(0);
    expect(statuses.at(-1)).toEqual({ kind: 'saved' });
    expect(drafts.records.has(ID)).toBe(false);
  });
});
