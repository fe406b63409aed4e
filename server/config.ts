import { z } from 'zod';
import { DEFAULT_LIMITS } from '../common/api/limits.ts';
import { LOG_LEVELS, type LogLevel } from './logger.ts';

/** A hosted OpenID Connect provider (`OIDC_ISSUER`, `OIDC_CLIENT_ID`, `OIDC_CLIENT_SECRET`). */
export interface HostedProviderConfig {
  /** The issuer URL exactly as the provider's discovery document states it; may have a path. */
  issuer: string;
  /** The client id registered for Inkwell at the provider. */
  clientId: string;
  /** The client secret registered for Inkwell at the provider. */
  clientSecret: string;
  /** How the client authenticates at the token endpoint; undefined follows the provider's metadata. */
  tokenAuthMethod: 'client_secret_basic' | 'client_secret_post' | undefined;
}

/** The server's configuration, read once at start from environment variables. */
export interface Config {
  /** TCP port to listen on (`PORT`, default 3000; 0 picks a free port). */
  port: number;
  /** Interface to listen on (`HOST`); undefined listens on every interface, IPv6 and IPv4. */
  host: string | undefined;
  /** `NODE_ENV`: `development` (default), `production` or `test`. */
  nodeEnv: 'development' | 'production' | 'test';
  /** `LOG_LEVEL`: `debug`, `info` (default), `warn`, `error` or `silent`. */
  logLevel: LogLevel;
  /**
   * `PUBLIC_URL`: the address people open, e.g. `https://write.example.com`; undefined means
   * `http://localhost:<port>`. Sign-in redirects and the same-origin check are built from it.
   */
  publicUrl: string | undefined;
  /** `DATABASE_URL`: a PostgreSQL server; undefined uses the embedded PGlite in `dataDir`. */
  databaseUrl: string | undefined;
  /** `DATA_DIR`: where the embedded database lives (default `./data`). */
  dataDir: string;
  /** A hosted identity provider; undefined runs the embedded one at `/idp`. */
  oidc: HostedProviderConfig | undefined;
  /** `SESSION_DAYS`: how long a session lasts without use (default 30). */
  sessionDays: number;
  /** `DOCUMENT_MAX_BYTES`: largest document JSON accepted (default 5 MB). */
  documentMaxBytes: number;
}

const positiveInt = (max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().min(1, 'must be at least 1').max(max, `must be at most ${max}`));

const httpUrl = z
  .url({ protocol: /^https?$/, message: 'must be an http:// or https:// URL' })
  .transform((value) => value.replace(/\/+$/, ''));

const envSchema = z.object({
  PORT: z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().max(65535, 'must be at most 65535'))
    .default(3000),
  HOST: z.string().min(1, 'must not be empty').optional(),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  PUBLIC_URL: httpUrl
    .refine((value) => new URL(value).pathname === '/', 'must be an origin without a path')
    .optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// connection string')
    .optional(),
  DATA_DIR: z.string().default('./data'),
  // Kept exactly as given: Auth0's issuer ends in a slash, Keycloak's does not, and both must match.
  OIDC_ISSUER: z
    .url({ protocol: /^https?$/, message: 'must be an http:// or https:// URL' })
    .optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  OIDC_TOKEN_AUTH_METHOD: z.enum(['client_secret_basic', 'client_secret_post']).optional(),
  SESSION_DAYS: positiveInt(365).default(30),
  DOCUMENT_MAX_BYTES: positiveInt(64 * 1024 * 1024).default(DEFAULT_LIMITS.documentBytes),
});

const HOSTED_KEYS = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const;

/** Thrown by `loadConfig` with one line per bad variable, naming it and the value it had. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Variables whose values are never echoed in an error message. */
const SECRET_KEYS = new Set(['OIDC_CLIENT_SECRET', 'DATABASE_URL']);

/**
 * Reads and validates the configuration. Empty variables count as unset, as shells and `.env`
 * files often leave them so.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(
    Object.keys(envSchema.shape).flatMap((key) => {
      const value = env[key]?.trim();
      return value ? [[key, value]] : [];
    }),
  );
  const shown = (key: string) => (SECRET_KEYS.has(key) ? '(hidden)' : JSON.stringify(present[key]));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const key = String(issue.path[0]);
      return `  ${key}=${shown(key)}: ${issue.message}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const data = parsed.data;
  const setHosted = HOSTED_KEYS.filter((key) => data[key] !== undefined);
  if (setHosted.length > 0 && setHosted.length < HOSTED_KEYS.length) {
    const missing = HOSTED_KEYS.filter((key) => data[key] === undefined);
    throw new ConfigError(
      `Invalid configuration:\n  a hosted identity provider needs ${HOSTED_KEYS.join(', ')}; missing ${missing.join(', ')}`,
    );
  }
  return {
    port: data.PORT,
    host: data.HOST,
    nodeEnv: data.NODE_ENV,
    logLevel: data.LOG_LEVEL,
    publicUrl: data.PUBLIC_URL,
    databaseUrl: data.DATABASE_URL,
    dataDir: data.DATA_DIR,
    oidc:
      data.OIDC_ISSUER && data.OIDC_CLIENT_ID && data.OIDC_CLIENT_SECRET
        ? {
            issuer: data.OIDC_ISSUER,
            clientId: data.OIDC_CLIENT_ID,
            clientSecret: data.OIDC_CLIENT_SECRET,
            tokenAuthMethod: data.OIDC_TOKEN_AUTH_METHOD,
          }
        : undefined,
    sessionDays: data.SESSION_DAYS,
    documentMaxBytes: data.DOCUMENT_MAX_BYTES,
  };
}
