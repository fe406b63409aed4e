import type {
  VaultEntry,
  VaultImportResult,
  VaultMarkdownResponse,
} from '../../../common/api/vault.ts';
import { api, ApiError, JsonText, NetworkError } from '../../lib/api.ts';
import type { OutgoingNote } from './importVault.ts';

/** Sends a batch of an import; a dropped connection or a busy server is tried once more. */
export async function sendVaultBatch(notes: readonly OutgoingNote[]): Promise<VaultImportResult[]> {
  // The contents are JSON text already: spliced in rather than parsed and written again.
  const items = notes.map(
    (note) =>
      `{"id":${JSON.stringify(note.id)},"title":${JSON.stringify(note.title)},"folder":${JSON.stringify(note.folder)},"content":${note.content}}`,
  );
  const body = new JsonText(`{"documents":[${items.join(',')}]}`);
  const post = () => api.post('/api/vault/documents', body, (s) => s.vaultImportResponseSchema);
  try {
    return (await post()).results;
  } catch (error) {
    // The ids were chosen here, so a batch the server did take answers `existing` the second time.
    const transient =
      error instanceof NetworkError || (error instanceof ApiError && error.status >= 500);
    if (!transient) throw error;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    return (await post()).results;
  }
}

/** The live documents of a folder and below ('' for all), as an export names them. */
export async function listVault(folder: string): Promise<VaultEntry[]> {
  const query = folder ? `?folder=${encodeURIComponent(folder)}` : '';
  const { documents } = await api.get(
    `/api/vault/documents${query}`,
    (s) => s.vaultListResponseSchema,
  );
  return documents;
}

/** The Markdown of a batch of documents. */
export function vaultMarkdown(ids: readonly string[]): Promise<VaultMarkdownResponse> {
  return api.post('/api/vault/markdown', { ids }, (s) => s.vaultMarkdownResponseSchema);
}
