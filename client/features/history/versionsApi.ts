import type {
  AuthorshipResponse,
  ListVersionsResponse,
  VersionResponse,
  VersionSummary,
} from '../../../common/api/versions.ts';
import { api as appApi, type ApiClient } from '../../lib/api.ts';

const versionsUrl = (documentId: string) =>
  `/api/documents/${encodeURIComponent(documentId)}/versions`;

/** The version-history API (common/api/versions.ts) as the history panel calls it. */
export interface VersionsApi {
  /** A page of versions, newest first; `before` is the `next` of the page before. */
  list(documentId: string, before?: string): Promise<ListVersionsResponse>;
  /** One version with its content (unchecked: the panel checks it as any content from outside). */
  get(documentId: string, versionId: string): Promise<VersionResponse>;
  /** Keeps the document as it is now under `name`. */
  keep(documentId: string, name: string): Promise<VersionSummary>;
  /** Keeps the document as it is now, before the version `versionId` is restored. */
  keepBeforeRestore(documentId: string, versionId: string): Promise<VersionSummary>;
  /** Names or renames a version. */
  rename(documentId: string, versionId: string, name: string): Promise<VersionSummary>;
  /** Who wrote what in a version, or (`versionId` null) in the document now. */
  authorship(documentId: string, versionId: string | null): Promise<AuthorshipResponse>;
}

/** A {@link VersionsApi} on `client`; tests pass a client with a fetch double. */
export function createVersionsApi(client: ApiClient): VersionsApi {
  return {
    list: (id, before) => {
      const query = new URLSearchParams(before ? { before } : {});
      const search = before ? `?${query}` : '';
      return client.get(`${versionsUrl(id)}${search}`, (s) => s.listVersionsResponseSchema);
    },
    get: (id, versionId) =>
      client.get(
        `${versionsUrl(id)}/${encodeURIComponent(versionId)}`,
        (s) => s.versionResponseSchema,
      ),
    keep: async (id, name) =>
      (await client.post(versionsUrl(id), { name }, (s) => s.versionSummaryResponseSchema)).version,
    keepBeforeRestore: async (id, versionId) =>
      (
        await client.post(
          versionsUrl(id),
          { restoring: versionId },
          (s) => s.versionSummaryResponseSchema,
        )
      ).version,
    rename: async (id, versionId, name) =>
      (
        await client.patch(
          `${versionsUrl(id)}/${encodeURIComponent(versionId)}`,
          { name },
          (s) => s.versionSummaryResponseSchema,
        )
      ).version,
    authorship: (id, versionId) =>
      client.get(
        versionId === null
          ? `/api/documents/${encodeURIComponent(id)}/authorship`
          : `${versionsUrl(id)}/${encodeURIComponent(versionId)}/authorship`,
        (s) => s.authorshipResponseSchema,
      ),
  };
}

/**
 * `api` remembering the last `size` versions it read: a version's content never changes, and the
 * panel reads the same ones again as one is shown, compared and shown again (1.2 MB each).
 */
export function withRecentVersions(api: VersionsApi, size = 4): VersionsApi {
  const recent = new Map<string, Promise<VersionResponse>>();
  return {
    ...api,
    get: (documentId, versionId) => {
      const key = `${documentId}/${versionId}`;
      const known = recent.get(key);
      recent.delete(key);
      const answer = known ?? api.get(documentId, versionId);
      if (!known) answer.catch(() => recent.delete(key));
      // Newest last: the first key is the one read longest ago.
      recent.set(key, answer);
      if (recent.size > size) recent.delete(recent.keys().next().value!);
      return answer;
    },
  };
}

/** The app's {@link VersionsApi}. */
export const versionsApi: VersionsApi = createVersionsApi(appApi);
