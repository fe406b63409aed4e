import type {
  Backlink,
  LinkedDocument,
  RenameLinksResponse,
} from '../../../../../common/api/links.ts';
import { api } from '../../../../lib/api.ts';
import { backlinksResponseCheck } from '../../../../lib/startChecks.ts';

const documentUrl = (id: string) => `/api/documents/${encodeURIComponent(id)}`;

/** The writer's documents that `targets` find, in order; null for a target that finds none. */
export async function resolveLinks(targets: string[]): Promise<Array<LinkedDocument | null>> {
  const answer = await api.post(
    '/api/links/resolve',
    { targets },
    (s) => s.resolveLinksResponseSchema,
  );
  return answer.documents;
}

/** The writer's documents that link to `id`; with `asTitle`, those that found it by that title. */
export async function getBacklinks(id: string, asTitle?: string): Promise<Backlink[]> {
  const query = asTitle === undefined ? '' : `?${new URLSearchParams({ title: asTitle })}`;
  // Checked without zod: it is read as every document opens (see startChecks.ts).
  const answer = await api.get(`${documentUrl(id)}/backlinks${query}`, backlinksResponseCheck);
  return answer.backlinks;
}

/** Rewrites the links that found `id` under the title `from` to its current title. */
export function renameLinks(id: string, from: string): Promise<RenameLinksResponse> {
  return api.post(`${documentUrl(id)}/rename-links`, { from }, (s) => s.renameLinksResponseSchema);
}
