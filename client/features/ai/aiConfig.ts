import type { ConfigResponse } from '../../../common/api/config.ts';
import { api } from '../../lib/api.ts';

let loading: Promise<ConfigResponse> | undefined;

/** `GET /api/config`, fetched on first use and kept for the page's life. */
export function loadServerConfig(): Promise<ConfigResponse> {
  loading ??= import('../../../common/api/config.ts')
    .then(({ configResponseSchema }) => api.get('/api/config', () => configResponseSchema))
    .catch((error: unknown) => {
      // A failure (offline) must not stick: the next menu opening asks again.
      loading = undefined;
      throw error;
    });
  return loading;
}
