import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { DocumentContent } from '../../common/api/documents.ts';
import { shareTokenSchema } from '../../common/api/sharing.ts';
import type { CollabEngine } from '../collab/collabEngine.ts';
import type { Queryable } from '../db/database.ts';
import { documentNode, validateContent } from '../documents/validateContent.ts';
import type { Logger } from '../logger.ts';
import { tokenHash } from '../sharing/tokens.ts';
import { PageFiles } from './pageUrls.ts';
import { renderContent } from './renderContent.ts';

/** How often at most a published document's live edits are stored for its readers. */
const FLUSH_INTERVAL_MS = 1000;
/** Characters of rendered pages kept, across pages; a page larger than this is rendered per read. */
const CACHE_CHARS = 32_000_000;

/** A published page as a reader gets it. */
export interface PageView {
  documentId: string;
  /** The document's owner: the page shows the files its owner may read. */
  ownerId: string;
  title: string;
  indexable: boolean;
  version: number;
  /** The article's HTML. */
  html: string;
  /** The uploaded files the page shows or links: the only ones it serves. */
  fileIds: ReadonlySet<string>;
  /** Changes whenever the title or the HTML does (a strong ETag, quoted). */
  etag: string;
}

interface PageRow {
  document_id: string;
  owner_id: string;
  title: string;
  version: number;
  indexable: boolean;
}

type Rendered = Pick<PageView, 'title' | 'version' | 'html' | 'fileIds' | 'etag'> & {
  documentId: string;
};

/**
 * Published pages (docs/PRODUCT.md "Sharing"), read by their token: the one place that decides
 * whether an address shows a document, and what it shows. The routes that publish write the rows;
 * this only reads them. A page is rendered once per version of its document and kept; readers
 * that poll cost a lookup and, at most once a second per document, a flush of its live edits.
 */
export class PublishedPages {
  private readonly rendered = new LRUCache<string, Rendered>({
    maxSize: CACHE_CHARS,
    sizeCalculation: (page) => page.html.length + page.title.length + 1,
  });
  /** Renders under way, so readers arriving together after a change render it once. */
  private readonly rendering = new Map<string, Promise<Rendered | null>>();
  /** Flushes of the last second, per document; every reader in that second waits on the same. */
  private readonly flushes = new LRUCache<string, Promise<void>>({
    max: 10_000,
    ttl: FLUSH_INTERVAL_MS,
  });

  constructor(
    private readonly db: Queryable,
    private readonly logger: Logger,
    private readonly collab?: CollabEngine,
  ) {}

  /**
   * The page `token` opens, current to within a second of its live editors; null for anything
   * that is not a published page today (malformed, unknown, unpublished, expired, or a document
   * in the trash or deleted), so that none can be told from another.
   */
  async view(token: string): Promise<PageView | null> {
    if (!shareTokenSchema.safeParse(token).success) return null;
    let row = await this.find(token);
    if (!row) return null;
    if (this.collab && (await this.flush(this.collab, row.document_id))) {
      row = await this.find(token);
      if (!row) return null;
    }
    const page = await this.render(token, row);
    if (!page) return null;
    return { ...page, ownerId: row.owner_id, indexable: row.indexable };
  }

  private async find(token: string): Promise<PageRow | null> {
    const { rows } = await this.db.query<PageRow>(
      `SELECT p.document_id, d.owner_id, d.title, d.version, p.indexable
         FROM published_pages p JOIN documents d ON d.id = p.document_id
        WHERE p.token_hash = $1 AND d.deleted_at IS NULL
          AND (p.expires_at IS NULL OR p.expires_at > now())`,
      [tokenHash(token)],
    );
    return rows[0] ?? null;
  }

  /**
   * Stores what the document's live editors typed, at most once a {@link FLUSH_INTERVAL_MS} per
   * document. True when this call started the flush (the row read before it may be stale).
   */
  private async flush(collab: CollabEngine, documentId: string): Promise<boolean> {
    const running = this.flushes.get(documentId);
    if (running) {
      await running;
      return false;
    }
    const flushing = collab.flush(documentId).catch((error: unknown) =>
      // Readers then get the content stored last, a few seconds older at most.
      this.logger.warn('Storing a published document’s live edits failed.', {
        documentId,
        err: error,
      }),
    );
    this.flushes.set(documentId, flushing);
    await flushing;
    return true;
  }

  private async render(token: string, row: PageRow): Promise<Rendered | null> {
    const cached = this.rendered.get(token);
    if (cached && isCurrent(cached, row)) return cached;
    const key = `${token}:${row.version}`;
    let rendering = this.rendering.get(key);
    if (!rendering) {
      rendering = this.renderNow(token, row.document_id).finally(() => this.rendering.delete(key));
      this.rendering.set(key, rendering);
    }
    const page = await rendering;
    if (page) this.rendered.set(token, page);
    return page;
  }

  private async renderNow(token: string, documentId: string): Promise<Rendered | null> {
    const { rows } = await this.db.query<{
      title: string;
      version: number;
      content: DocumentContent;
    }>('SELECT title, version, content FROM documents WHERE id = $1', [documentId]);
    const row = rows[0];
    // Deleted for good since the lookup.
    if (!row) return null;
    const doc = documentNode(validateContent(row.content, { stored: true }));
    const { html, fileIds } = renderContent(doc, new PageFiles(token));
    const hash = createHash('sha256').update(`${row.version}\0${row.title}\0`).update(html);
    const etag = `"${hash.digest('base64url').slice(0, 27)}"`;
    return { documentId, title: row.title, version: row.version, html, fileIds, etag };
  }
}

function isCurrent(page: Rendered, row: PageRow): boolean {
  return (
    page.documentId === row.document_id && page.version === row.version && page.title === row.title
  );
}
