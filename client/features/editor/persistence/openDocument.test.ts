import { describe, expect, it, vi } from 'vitest';
import type { DocumentRecord } from '../../../../common/api/documents.ts';
import { inkwellSchema } from '../../../../common/editor/extensions.ts';
import type { PendingDocument } from '../../documents/pendingDocuments.ts';
import { ApiError } from '../../../lib/api.ts';
import type { Draft } from './draftStore.ts';
import { openDocument, UnreadableDocumentError } from './openDocument.ts';
import { FakeDraftStore } from './test/FakeDraftStore.ts';
import type * as htmlSanitizer from '../nodeViews/htmlSanitizer.ts';
import { loadHtmlSanitizer } from '../nodeViews/htmlSanitizer.ts';

// Spied on, to tell whether opening a document downloaded the sanitiser.
vi.mock('../nodeViews/htmlSanitizer.ts', async (importOriginal) => {
  const original = await importOriginal<typeof htmlSanitizer>();
  return { ...original, loadHtmlSanitizer: vi.fn(original.loadHtmlSanitizer) };
});

const ID = '6f1c1f52-1d7e-4f43-9a4b-0a0c7b1d2e3f';
const paragraph = (text: string) => ({
  type: 'doc' as const,
  content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
});
const server: DocumentRecord = {
  id: ID,
  title: 'Plan',
  version: 4,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-02T00:00:00.000Z',
  deletedAt: null,
  content: paragraph('saved text'),
};
/** The same content as the editor's schema holds it. */
const node = (json: object) => inkwellSchema().nodeFromJSON(json);
const draft = (fields: Partial<Draft> = {}): Draft => ({
  documentId: ID,
  baseVersion: 4,
  title: 'Plan',
  json: JSON.stringify(paragraph('unsaved text')),
  change: 7,
  savedAt: 1,
  ...fields,
});

function open(drafts: FakeDraftStore, record: DocumentRecord = server) {
  return openDocument(ID, { fetchDocument: async () => record, drafts });
}

describe('openDocument', () => {
  it("opens the server's copy when the device holds no draft", async () => {
    const opened = await open(new FakeDraftStore());
    expect(opened).toMatchObject({ title: 'Plan', baseVersion: 4, restoredChange: 0 });
    expect(opened.content.eq(node(paragraph('saved text')))).toBe(true);
    expect(opened.notice).toBeNull();
    expect(opened.conflict).toBeNull();
  });

  it('applies a draft based on the current version, to be saved at once', async () => {
    const drafts = new FakeDraftStore();
    drafts.records.set(ID, draft({ title: 'Plan B' }));
    const opened = await open(drafts);
    expect(opened).toMatchObject({ title: 'Plan B', baseVersion: 4, restoredChange: 7 });
    expect(opened.content.eq(node(paragraph('unsaved text')))).toBe(true);
    expect(opened.notice).toBe('Restored unsaved changes from this device.');
    expect(opened.conflict).toBeNull();
  });

  it("shows a draft based on an older version against the server's copy", async () => {
    const drafts = new FakeDraftStore();
    drafts.records.set(ID, draft({ baseVersion: 2 }));
    const opened = await open(drafts);
    expect(opened.conflict).toBe(server);
    expect(opened.baseVersion).toBe(2);
    expect(opened.content.eq(node(paragraph('unsaved text')))).toBe(true);
    expect(drafts.records.has(ID)).toBe(true);
  });

  it('drops a draft that the server already holds', async () => {
    const drafts = new FakeDraftStore();
    drafts.records.set(ID, draft({ baseVersion: 3, json: JSON.stringify(server.content) }));
    const opened = await open(drafts);
    expect(opened.conflict).toBeNull();
    expect(opened.restoredChange).toBe(0);
    expect(drafts.records.has(ID)).toBe(false);
  });

  it('keeps a broken draft aside and opens the saved version with a message', async () => {
    const drafts = new FakeDraftStore();
    const broken = draft({ json: '{"type":"doc","content":[{"type":"nope"}]}' });
    drafts.records.set(ID, broken);
    const opened = await open(drafts);
    expect(opened.content.eq(node(paragraph('saved text')))).toBe(true);
    expect(opened.problem).toMatch(/kept aside/);
    expect(drafts.keptAside).toEqual([{ documentId: ID, record: broken }]);
    expect(drafts.records.has(ID)).toBe(false);
  });

  it('keeps aside a record that is not a draft at all', async () => {
    const drafts = new FakeDraftStore();
    drafts.records.set(ID, { title: 'old format', json: 5 });
    const opened = await open(drafts);
    expect(opened.problem).toMatch(/kept aside/);
    expect(drafts.keptAside).toHaveLength(1);
  });

  it('cleans a draft by the link rule before showing it', async () => {
    const drafts = new FakeDraftStore();
    const link = { type: 'link', attrs: { href: 'javascript:alert(1)' } };
    const json = JSON.stringify({
      type: 'doc',
      content: [{ type: 'paragraph', content: [{ type: 'text', text: 'x', marks: [link] }] }],
    });
    drafts.records.set(ID, draft({ json }));
    const opened = await open(drafts);
    expect(JSON.stringify(opened.content)).not.toContain('javascript:');
    expect(JSON.stringify(opened.content)).toContain('"text":"x"');
  });

  it('opens without drafts when the device storage fails', async () => {
    const drafts = new FakeDraftStore();
    drafts.failing = true;
    const opened = await open(drafts);
    expect(opened.content.eq(node(paragraph('saved text')))).toBe(true);
    expect(opened.problem).toMatch(/storage is not available/);
  });

  it("passes on the server's 404", async () => {
    const missing = new ApiError('not_found', 'There is no such document.', 404);
    const opening = openDocument(ID, {
      fetchDocument: () => Promise.reject(missing),
      drafts: new FakeDraftStore(),
    });
    await expect(opening).rejects.toBe(missing);
  });

  it('refuses a server copy nested deeper than a document may be, as one that does not fit', async () => {
    let deep: object = { type: 'paragraph' };
    for (let i = 0; i < 100_000; i++) deep = { type: 'blockquote', content: [deep] };
    const content = { type: 'doc' as const, content: [deep] };
    await expect(open(new FakeDraftStore(), { ...server, content })).rejects.toBeInstanceOf(
      UnreadableDocumentError,
    );
  });

  it('refuses a server copy that does not fit the schema', async () => {
    const record = { ...server, content: { type: 'doc' as const, content: [{ type: 'nope' }] } };
    await expect(open(new FakeDraftStore(), record)).rejects.toBeInstanceOf(
      UnreadableDocumentError,
    );
  });

  describe('a document still being created (an import)', () => {
    const imported: PendingDocument = {
      record: { ...server, title: 'notes', version: 1 },
      doc: node(paragraph('imported text')),
    };
    const openPending = (drafts: FakeDraftStore) => {
      const fetchDocument = vi.fn(() => Promise.reject(new Error('not on the server yet')));
      const opening = openDocument(ID, {
        fetchDocument,
        pendingDocument: (id) => (id === ID ? imported : undefined),
        drafts,
      });
      return { opening, fetchDocument };
    };

    it('opens from memory as the codec built it, without fetching', async () => {
      const { opening, fetchDocument } = openPending(new FakeDraftStore());
      const opened = await opening;
      expect(fetchDocument).not.toHaveBeenCalled();
      expect(opened.content).toBe(imported.doc);
      expect(opened).toMatchObject({ title: 'notes', baseVersion: 1, creating: true });
    });

    it('applies edits drafted meanwhile, and keeps an unchanged draft until it is created', async () => {
      const drafts = new FakeDraftStore();
      drafts.records.set(ID, draft({ baseVersion: 1, title: 'notes v2', change: 3 }));
      const edited = await openPending(drafts).opening;
      expect(edited).toMatchObject({ title: 'notes v2', restoredChange: 3, creating: true });
      expect(edited.content.eq(node(paragraph('unsaved text')))).toBe(true);

      const same = draft({
        baseVersion: 1,
        title: 'notes',
        json: JSON.stringify(paragraph('imported text')),
      });
      drafts.records.set(ID, same);
      const unchanged = await openPending(drafts).opening;
      expect(unchanged.restoredChange).toBe(0);
      expect(drafts.records.get(ID)).toBe(same);
    });
  });

  it('opens a document without raw HTML without loading the HTML sanitiser', async () => {
    vi.mocked(loadHtmlSanitizer).mockClear();
    const opened = await open(new FakeDraftStore());
    expect(opened.content.textContent).toBe('saved text');
    expect(loadHtmlSanitizer).not.toHaveBeenCalled();
  });

  it('loads the sanitiser for a document with raw HTML, and sanitises it', async () => {
    vi.mocked(loadHtmlSanitizer).mockClear();
    const html = '<div align="center">kept</div><script>alert(1)</script>';
    const content = { type: 'doc' as const, content: [{ type: 'htmlBlock', attrs: { html } }] };
    const opened = await open(new FakeDraftStore(), { ...server, content });
    expect(loadHtmlSanitizer).toHaveBeenCalled();
    const kept = String(opened.content.firstChild?.attrs.html);
    expect(kept).toContain('kept');
    expect(kept).not.toContain('script');
  });
});
