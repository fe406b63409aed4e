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
import { DocumentStore } from '../documents/documentStore.ts';
import { documentNode, validateContent } from '../documents/validateContent.ts';
import { AppError, InvalidRequestError, PayloadTooLargeError } from '../errors.ts';
import { formatBytes, limitBody, parseWith, readJson } from '../middleware/readJson.ts';
import type { AppEnv, Services } from '../services.ts';
import { VaultStore } from '../vault/vaultStore.ts';

/** Room for ids, titles and folders around the contents of a batch. */
const ENVELOPE_BYTES = 256 * 1024;

/**
 * Vault import and export (docs/PRODUCT.md "Markdown"): the browser reads the vault, parses each
 * note with the codec and sends them here in batches; an export lists the documents and fetches
 * their Markdown in batches, and the browser writes the zip. Both sides can then show progress,
 * and no request holds the server's thread for a whole vault.
 */
export function vaultRoutes(services: Services): Hono<AppEnv> {
  const documents = new DocumentStore(services.db);
  const vault = new VaultStore(services.db);
  const maxBytes = services.config.documentMaxBytes;
  const ownerOf = (c: Context<AppEnv>) => c.get('session').user.id;
  const app = new Hono<AppEnv>();

  // A batch is as large as one document may be: the client sends a large note on its own.
  app.post(
    '/api/vault/documents',
    limitBody(maxBytes + ENVELOPE_BYTES, 'A batch of documents'),
    async (c) => {
      const body = await readJson(c, vaultImportRequestSchema);
      const ids = new Set(body.documents.map((document) => document.id));
      if (ids.size !== body.documents.length) {
        throw InvalidRequestError('Each document of a batch needs its own id.');
      }
      const owner = ownerOf(c);
      const results: VaultImportResult[] = [];
      // One by one: a refused note (invalid, too large) must not cost the rest of its batch.
      for (const document of body.documents) {
        try {
          const content = validateContent(document.content);
          if (Buffer.byteLength(content.jsonText) > maxBytes) {
            throw PayloadTooLargeError(`It is larger than ${formatBytes(maxBytes)} once imported.`);
          }
          const created = await documents.createWithId(
            owner,
            document.id,
            document.title,
            content,
            document.folder,
          );
          results.push(
            created.outcome === 'taken'
              ? { id: document.id, outcome: 'refused', message: 'This id is taken.' }
              : { id: document.id, outcome: created.outcome },
          );
        } catch (error) {
          if (!(error instanceof AppError) || error.status >= 500) throw error;
          results.push({ id: document.id, outcome: 'refused', message: error.message });
        }
      }
      return c.json<VaultImportResponse>({ results });
    },
  );

  app.get('/api/vault/documents', async (c) => {
    const { folder } = parseWith(vaultListQuerySchema, c.req.query());
    return c.json<VaultListResponse>({ documents: await vault.list(ownerOf(c), folder ?? '') });
  });

  app.post('/api/vault/markdown', limitBody(64 * 1024, 'The request'), async (c) => {
    const { ids } = await readJson(c, vaultMarkdownRequestSchema);
    const rows = await vault.contents(ownerOf(c), ids);
    const files = rows.map((row) => ({
      id: row.id,
      markdown: serializeMarkdown(documentNode(validateContent(row.content))),
    }));
    return c.json<VaultMarkdownResponse>({ files });
  });

  return app;
}
