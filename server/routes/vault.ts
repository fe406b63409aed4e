import { Hono, type Context } from 'hono';
import {
  vaultImportRequestSchema,
  vaultListQuerySchema,
  vaultMarkdownRequestSchema,
  type VaultImportResponse,
  type VaultImportResult,
  type VaultListResponse,
  type VaultMarkdownResponse,
} from '../../common/api/vault.ts';
import { serializeMarkdown } from '../../common/editor/markdown/serializeMarkdown.ts';
import { documentNode, validateContent } from '../documents/validateContent.ts';
import { embeddedFiles } from '../../common/editor/dialects/wikilink/embeddedFiles.ts';
import { AppError, InvalidRequestError, PayloadTooLargeError } from '../errors.ts';
import {
  formatBytes,
  jsonHoldsNul,
  limitBody,
  parseWith,
  readJson,
} from '../middleware/readJson.ts';
import type { AppEnv, Services } from '../services.ts';
import { VaultStore, type NewVaultDocument } from '../vault/vaultStore.ts';

/**
 * Markdown written per export request before the rest is left for the next: about 2 MB, a few
 * hundred milliseconds of the server's thread at most.
 */
const EXPORT_CHARS = 2_000_000;

/** A batch body may always be this large, even when documents are limited to less. */
const MIN_BATCH_BYTES = 8 * 1024 * 1024;

/** Room for ids, titles and folders around the contents of a batch. */
const ENVELOPE_BYTES = 256 * 1024;

/**
 * Vault import and export (docs/PRODUCT.md "Markdown"): the browser reads the vault, parses each
 * note with the codec and sends them here in batches; an export lists the documents and fetches
 * their Markdown in batches, and the browser writes the zip. Both sides can then show progress,
 * and no request holds the server's thread for a whole vault.
 */
export function vaultRoutes(services: Services): Hono<AppEnv> {
  const vault = new VaultStore(services.db);
  const maxBytes = services.config.documentMaxBytes;
  const ownerOf = (c: Context<AppEnv>) => c.get('session').user.id;
  const app = new Hono<AppEnv>();

  // A batch holds at least one document of the largest size, alone (the client sends a large
  // note on its own), and the 2 MB batches the client makes, whatever the document limit is.
  const batchBytes = Math.max(maxBytes, MIN_BATCH_BYTES) + ENVELOPE_BYTES;
  app.post('/api/vault/documents', limitBody(batchBytes, 'A batch of documents'), async (c) => {
    // NUL is refused per note below, so that it costs only its note.
    const body = await readJson(c, vaultImportRequestSchema, { allowNul: true });
    const ids = new Set(body.documents.map((document) => document.id));
    if (ids.size !== body.documents.length) {
      throw InvalidRequestError('Each document of a batch needs its own id.');
    }
    const owner = ownerOf(c);
    const results = new Map<string, VaultImportResult>();
    const valid: NewVaultDocument[] = [];
    // Each note on its own: a refused one (invalid, too large) must not cost the rest.
    for (const document of body.documents) {
      try {
        const content = validateContent(document.content);
        if (Buffer.byteLength(content.jsonText) > maxBytes) {
          throw PayloadTooLargeError(`It is larger than ${formatBytes(maxBytes)} once imported.`);
        }
        // PostgreSQL's text and jsonb cannot hold U+0000; caught here, it is this note's refusal.
        if (document.title.includes('\0')) {
          throw InvalidRequestError(
            'Its title holds a NUL character (U+0000), which text never does.',
          );
        }
        if (jsonHoldsNul(content.jsonText)) {
          throw InvalidRequestError(
            'Its text holds a NUL character (U+0000), which text never does.',
          );
        }
        valid.push({ ...document, content });
      } catch (error) {
        if (!(error instanceof AppError) || error.status >= 500) throw error;
        results.set(document.id, { id: document.id, outcome: 'refused', message: error.message });
      }
    }
    const outcomes = valid.length > 0 ? await vault.createMany(owner, valid) : new Map();
    for (const [id, outcome] of outcomes) {
      results.set(
        id,
        outcome === 'taken'
          ? { id, outcome: 'refused', message: 'This id is taken.' }
          : { id, outcome },
      );
    }
    const ordered = body.documents.map(
      (d) =>
        results.get(d.id) ?? {
          id: d.id,
          outcome: 'refused' as const,
          message: 'It was not stored.',
        },
    );
    return c.json<VaultImportResponse>({ results: ordered });
  });

  app.get('/api/vault/documents', async (c) => {
    const { folder } = parseWith(vaultListQuerySchema, c.req.query());
    return c.json<VaultListResponse>({ documents: await vault.list(ownerOf(c), folder ?? '') });
  });

  app.post('/api/vault/markdown', limitBody(64 * 1024, 'The request'), async (c) => {
    const { ids } = await readJson(c, vaultMarkdownRequestSchema);
    const rows = await vault.contents(ownerOf(c), ids);
    const files: VaultMarkdownResponse['files'] = [];
    let chars = 0;
    for (const row of rows) {
      if (chars >= EXPORT_CHARS) break;
      const node = documentNode(validateContent(row.content, { stored: true }));
      const markdown = serializeMarkdown(node);
      const embeds = embeddedFiles(node);
      files.push({ id: row.id, markdown, ...(embeds.length > 0 ? { embeds } : {}) });
      chars += markdown.length;
    }
    const later = rows.slice(files.length).map((row) => row.id);
    return c.json<VaultMarkdownResponse>({ files, later });
  });

  return app;
}
