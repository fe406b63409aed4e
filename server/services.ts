import type { RelyingParty } from './auth/relyingParty.ts';
import type { CollabEngine } from './collab/collabEngine.ts';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import type { FileStorage } from './files/fileStorage.ts';
import type { Logger } from './logger.ts';
import type { SessionCache } from './auth/sessionCache.ts';
import type { ActiveSession } from './auth/sessions.ts';
import type { ShareTokens } from './sharing/tokens.ts';

/** What the routes need, built once at start (server/startServer.ts) and handed to `createApp`. */
export interface Services {
  config: Config;
  /** The origin people use, without a trailing slash: `PUBLIC_URL` or `http://localhost:<port>`. */
  publicUrl: string;
  db: Database;
  /** Where uploaded files' bytes live: the database, or the S3 bucket of `S3_BUCKET`. */
  files: FileStorage;
  relyingParty: RelyingParty;
  /** The key share-link and published-page addresses are made with, loaded once at start. */
  shareTokens: ShareTokens;
  logger: Logger;
  /** Sessions found a moment ago; only on PGlite, which no other instance can share. */
  sessionCache?: SessionCache;
  /** Live collaboration (`/api/collab`); absent in apps built without a server to upgrade on. */
  collab?: CollabEngine;
}

/** Hono's typed context: what middleware leaves for the handlers after it. */
export interface AppEnv {
  Variables: {
    /** Set by `requireSession` on every authenticated route. */
    session: ActiveSession;
    /** The request body as text, read by `limitBody` on the routes that take one. */
    bodyText?: string;
  };
}
