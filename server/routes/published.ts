import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Hono, type Context } from 'hono';
import { fileIdSchema } from '../../common/api/files.ts';
import { FileStore } from '../files/fileStore.ts';
import { sendFile } from '../files/sendFile.ts';
import {
  LIVE_SCRIPT_PATH,
  missingPageHtml,
  PAGE_CSS_PATH,
  pageHeaders,
  publishedPageHtml,
} from '../published/pageHtml.ts';
import { PublishedPages } from '../published/publishedPages.ts';
import type { AppEnv, Services } from '../services.ts';

/** The published page's content, as its script polls for it. */
export interface PageContentResponse {
  title: string;
  version: number;
  /** The article's HTML. */
  html: string;
}

/** A static file of the page, read once: it changes only with a deploy. */
function asset(name: string, type: string) {
  const body = readFileSync(new URL(`../published/assets/${name}`, import.meta.url), 'utf8');
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return (c: Context<AppEnv>) => {
    c.header('Cache-Control', 'no-cache');
    c.header('ETag', etag);
    if (c.req.header('If-None-Match')?.includes(etag)) return c.body(null, 304);
    c.header('Content-Type', type);
    return c.body(body);
  };
}

/**
 * Published pages (docs/PRODUCT.md "Sharing"): `GET /p/:token` the page, `/p/:token/content` its
 * article for the page's script, `/p/:token/files/:fileId` the uploaded images it shows. Public:
 * no session is read and no cookie set. Anything that is not a page today gets the same 404 page.
 */
export function publishedRoutes(services: Services): Hono<AppEnv> {
  const pages = new PublishedPages(services.db, services.logger, services.collab);
  const files = new FileStore(services.db);
  const app = new Hono<AppEnv>();

  const html = (c: Context<AppEnv>, body: string, status: 200 | 404, indexable: boolean) =>
    c.body(body, status, { ...pageHeaders(indexable), 'Content-Type': 'text/html; charset=utf-8' });
  const missing = (c: Context<AppEnv>) => html(c, missingPageHtml(), 404, false);

  app.get(PAGE_CSS_PATH, asset('page.css', 'text/css; charset=utf-8'));
  app.get(LIVE_SCRIPT_PATH, asset('live.js', 'text/javascript; charset=utf-8'));

  app.get('/p/:token', async (c) => {
    const page = await pages.view(c.req.param('token'));
    if (!page) return missing(c);
    return html(c, publishedPageHtml(page), 200, page.indexable);
  });

  app.get('/p/:token/content', async (c) => {
    const page = await pages.view(c.req.param('token'));
    if (!page) return missing(c);
    const headers = { ...pageHeaders(false), ETag: page.etag };
    if (c.req.header('If-None-Match')?.includes(page.etag)) return c.body(null, 304, headers);
    return c.json<PageContentResponse>(
      { title: page.title, version: page.version, html: page.html },
      200,
      headers,
    );
  });

  app.get('/p/:token/files/:fileId', async (c) => {
    const id = fileIdSchema.safeParse(c.req.param('fileId'));
    const page = id.success ? await pages.view(c.req.param('token')) : null;
    // What the page shows, and what its owner may read: a reference to someone else's file
    // written into the document shows nothing of it.
    const file =
      page && id.success && page.fileIds.has(id.data.toLowerCase())
        ? await files.canReadFile(page.ownerId, id.data)
        : null;
    if (!page || !file) return missing(c);
    for (const [name, value] of Object.entries(pageHeaders(page.indexable))) c.header(name, value);
    // Revalidated at every view: an unpublished page's images stop with it.
    return sendFile(c, services.files, file, 'private, no-cache');
  });

  app.all('/p/*', missing);
  app.all('/p', missing);
  return app;
}
