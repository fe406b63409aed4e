import { loadConfig } from '../config.ts';

/*
 * Test servers' timings for the versions the server keeps by itself (server/versions/
 * versionKeeper.ts), passed to describeWithServer or startTestServer as config overrides.
 */

const BASE = loadConfig({ PORT: '0', NODE_ENV: 'test', LOG_LEVEL: 'silent' });

/** A version a fraction of a second after editing stops, for tests that wait for one. */
export const QUICK_VERSIONS = {
  collab: { ...BASE.collab, versionTiming: { pauseMs: 300, everyMs: 60_000 } },
};

/** No version on a pause within a test: only those kept by hand or when the last writer leaves. */
export const SLOW_VERSIONS = {
  collab: { ...BASE.collab, versionTiming: { pauseMs: 600_000, everyMs: 600_000 } },
};
