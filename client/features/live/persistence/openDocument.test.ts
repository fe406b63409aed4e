import { describe, expect, it, vi } from 'vitest';
import type { DocumentRecord } from '../../../../common/api/documents.ts';
import { inkwellSchema } from '../../../../common/editor/extensions.ts';
import type { PendingDocument } from '../../documents/pendingDocuments.ts';
import { ApiError } from '../../../lib/api.ts';
import { openDocument, UnreadableDocumentError } from './openDocument.ts';
import type * as htmlSanitizer from '../../editor/nodeViews/htmlSanitizer.ts';
import { loadHtmlSanitizer } from '../../editor/nodeViews/htmlSanitizer.ts';

// Spied on, to tell whether opening a document downloaded the sanitiser.
vi.mock('../../editor/nodeViews/htmlSanitizer.ts', async (importOriginal) => {
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
function open(record: DocumentRecord = server) {
  return openDocument(ID, { fetchDocument: async () => record });
}

describe('openDocument', () => {
  it("opens the server's last saved copy, checked", async () => {
    const opened = await open();
    expect(opened).toMatchObject({ title: 'Plan', creating: false });
    expect(opened.content.eq(node(paragraph('saved text')))).toBe(true);
  });

  it("passes on the server's 404", async () => {
    const missing = new ApiError('not_found', 'There is no such document.', 404);
    const opening = openDocument(ID, { fetchDocument: () => Promise.reject(missing) });
    await expect(opening).rejects.toBe(missing);
  });

  it('refuses a server copy nested deeper than a document may be, as one that does not fit', async () => {
    let deep: object = { type: 'paragraph' };
    for (let i = 0; i < 100_000; i++) deep = { type: 'blockquote', content: [deep] };
    const content = { type: 'doc' as const, content: [deep] };
    await expect(open({ ...server, content })).rejects.toBeInstanceOf(UnreadableDocumentError);
  });

  it('refuses a server copy that does not fit the schema', async () => {
    const record = { ...server, content: { type: 'doc' as const, content: [{ type: 'nope' }] } };
    await expect(open(record)).rejects.toBeInstanceOf(UnreadableDocumentError);
  });

  it('opens a document still being created (an import) from memory, without fetching', async () => {
    const imported: PendingDocument = {
      record: { ...server, title: 'notes', version: 1 },
      doc: node(paragraph('imported text')),
    };
    const fetchDocument = vi.fn(() => Promise.reject(new Error('not on the server yet')));
    const opened = await openDocument(ID, {
      fetchDocument,
      pendingDocument: (id) => (id === ID ? imported : undefined),
    });
    expect(fetchDocument).not.toHaveBeenCalled();
    expect(opened.content).toBe(imported.doc);
    expect(opened).toMatchObject({ title: 'notes', creating: true });
  });

  it('opens a document without raw HTML without loading the HTML sanitiser', async () => {
    vi.mocked(loadHtmlSanitizer).mockClear();
    const opened = await open();
    expect(opened.content.textContent).toBe('saved text');
    expect(loadHtmlSanitizer).not.toHaveBeenCalled();
  });

  it('loads the sanitiser for a document with raw HTML, and sanitises it', async () => {
    vi.mocked(loadHtmlSanitizer).mockClear();
    const html = '<div align="center">kept</div><script>alert(1)</script>';
    const content = { type: 'doc' as const, content: [{ type: 'htmlBlock', attrs: { html } }] };
    const opened = await open({ ...server, content });
    expect(loadHtmlSanitizer).toHaveBeenCalled();
    const kept = String(opened.content.firstChild?.attrs.html);
    expect(kept).toContain('kept');
    expect(kept).not.toContain('script');
  });

  it('repairs attributes of the wrong type in a copy saved before the server checked them', async () => {
    const script = ['javascript:alert(1)'];
    const content = {
      type: 'doc' as const,
      content: [
        { type: 'heading', attrs: { level: '2' }, content: [{ type: 'text', text: 'Title' }] },
        {
          type: 'paragraph',
          content: [
            { type: 'text', text: 'click', marks: [{ type: 'link', attrs: { href: script } }] },
            { type: 'inlineImage', attrs: { src: script, alt: 'badge' } },
          ],
        },
      ],
    };
    const opened = await open({ ...server, content });
    expect(JSON.stringify(opened.content.toJSON())).not.toContain('javascript');
    expect(opened.content.firstChild?.attrs.level).toBe(1);
    expect(opened.content.lastChild?.textContent).toBe('clickbadge');
    expect(opened.content.lastChild?.firstChild?.marks[0]?.attrs.href).toBeNull();
  });
});
