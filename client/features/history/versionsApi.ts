import {
  versionResponseSchema,
  type AuthorshipResponse,
  type ListVersionsResponse,
  type VersionResponse,
  type VersionSummary,
} from '../../../common/api/versions.ts';
import { api as appApi, notUnderstood, type ApiClient } from '../../lib/api.ts';

const versionsUrl = (documentId: string) =>
  `/api/documents/${encodeURIComponent(documentId)}/versions`;

/** The version-history API (common/api/versions.ts) as the history panel calls it. */
export interface VersionsApi {
  /** A page of versions, newest first; `before` is the `next` of the page before. */
  list(documentId: string, before?: string): Promise<ListVersionsResponse>;
  /** One version with its content (unchecked: the panel checks it as any content from outside). */
  get(documentId: string, versionId: string): Promise<VersionResponse>;
  /**
   * The same answer as the server wrote it, JSON text not yet read: what a comparison sends its
   * worker, which reads it there (1.2 MB of JSON read on the page took it about 20 ms, checked
   * and written out again for the worker about 150 ms more).
   */
  read(documentId: string, versionId: string): Promise<string>;
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
  const read = async (id: string, versionId: string) =>
    (await client.getRaw(`${versionsUrl(id)}/${encodeURIComponent(versionId)}`)).text();
  return {
    list: (id, before) => {
      const query = new URLSearchParams(before ? { before } : {});
      const search = before ? `?${query}` : '';
      return client.get(`${versionsUrl(id)}${search}`, (s) => s.listVersionsResponseSchema);
    },
    get: async (id, versionId) => versionResponseOf(await read(id, versionId)),
    read,
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

/** A version's answer read from its JSON text, as the API client reads any answer. */
export function versionResponseOf(text: string): VersionResponse {
  try {
    return versionResponseSchema.parse(JSON.parse(text));
  } catch (error) {
    throw notUnderstood(200, error);
  }
}

/**
 * `api` remembering the last `size` versions it read: a version's content never changes, and the
 * panel reads the same ones again as one is shown, compared and shown again (1.2 MB each).
 */
export function withRecentVersions(api: VersionsApi, size = 4): VersionsApi {
  const recent = new Map<string, Promise<string>>();
  const read = (documentId: string, versionId: string) => {
    const key = `${documentId}/${versionId}`;
    const known = recent.get(key);
    recent.delete(key);
    const answer = known ?? api.read(documentId, versionId);
    if (!known) answer.catch(() => recent.delete(key));
    // Newest last: the first key is the one read longest ago.
    recent.set(key, answer);
    if (recent.size > size) recent.delete(recent.keys().next().value!);
    return answer;
  };
  return {
    ...api,
    read,
    get: async (documentId, versionId) => versionResponseOf(await read(documentId, versionId)),
  };
}

/** The app's {@link VersionsApi}. */
export const versionsApi: VersionsApi = createVersionsApi(appApi);
