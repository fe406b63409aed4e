import { isIP } from 'node:net';
import { z } from 'zod';
import { DEFAULT_AI_LIMITS } from '../common/api/ai.ts';
import {
  DEFAULT_FILE_MAX_BYTES,
  DEFAULT_FILE_MAX_PIXELS,
  DEFAULT_FILE_MAX_WHOLE_PIXELS,
} from '../common/api/files.ts';
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

/** An OpenAI-compatible Chat Completions endpoint (`AI_BASE_URL`, `AI_API_KEY`, `AI_MODEL`). */
export interface AiProviderConfig {
  /** The API's base, e.g. `https://api.openai.com/v1`; `/chat/completions` is appended to its path. */
  baseUrl: string;
  /** Sent as a bearer token; undefined for local servers that need none (Ollama, llama.cpp). */
  apiKey: string | undefined;
  /** The model to ask for (on Azure OpenAI, the deployment name). */
  model: string;
}

/** The AI assistant's provider and limits (docs/PRODUCT.md "AI assistant" and "Limits"). */
export interface AiConfig {
  /** The provider; undefined turns the assistant off (503 `ai_not_configured`). */
  provider: AiProviderConfig | undefined;
  /** `AI_MAX_INPUT_CHARS`: longest text, and separately context, of one request (default 24,000). */
  maxInputChars: number;
  /** `AI_MAX_OUTPUT_TOKENS`: `max_tokens` of every request (default 2048). */
  maxOutputTokens: number;
  /** `AI_REQUESTS_PER_MINUTE`: requests one user may start per minute (default 20). */
  requestsPerMinute: number;
  /** `AI_DAILY_TOKEN_BUDGET`: input + output tokens one user may use per UTC day (default 200,000). */
  dailyTokenBudget: number;
  /** `AI_FIRST_BYTE_TIMEOUT_MS`: longest wait for the provider to start answering (default 15 s). */
  firstByteTimeoutMs: number;
  /** `AI_IDLE_TIMEOUT_MS`: longest silence between two pieces of an answer (default 30 s). */
  idleTimeoutMs: number;
  /** `AI_TOTAL_TIMEOUT_MS`: longest a whole answer may take (default 120 s). */
  totalTimeoutMs: number;
}

/**
 * `TRUST_PROXY`: which proxies in front of Inkwell may say in `X-Forwarded-For` who the client
 * is. `none` (the default) ignores the header; `hops` trusts that many proxies nearest to the
 * server; `addresses` trusts proxies whose address is in `ranges` (addresses or CIDR ranges).
 */
export type TrustProxy =
  | { kind: 'none' }
  | { kind: 'hops'; hops: number }
  | { kind: 'addresses'; ranges: readonly string[] };

/**
 * An S3-compatible bucket for uploaded files (AWS S3, MinIO, Cloudflare R2, Backblaze B2): set
 * by `S3_BUCKET` and its companions.
 */
export interface S3Config {
  /** `S3_BUCKET`: the bucket's name; it must exist. */
  bucket: string;
  /** `S3_ENDPOINT`: the service's address; undefined is AWS S3 itself. */
  endpoint: string | undefined;
  /** `S3_REGION`: the bucket's region (default `us-east-1`; R2 takes `auto`). */
  region: string;
  /** `S3_ACCESS_KEY_ID` and `S3_SECRET_ACCESS_KEY`; undefined uses the AWS SDK's own lookup (IAM roles). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** `S3_FORCE_PATH_STYLE`: `true` puts the bucket in the path, as MinIO needs (default false). */
  forcePathStyle: boolean;
}

/** Uploaded images (docs/PRODUCT.md "Limits"). */
export interface FilesConfig {
  /** `FILE_MAX_BYTES`: largest upload accepted (default 20 MB). */
  maxBytes: number;
  /** `FILE_MAX_PIXELS`: most pixels an upload may declare, all frames together (default 120 million). */
  maxPixels: number;
  /**
   * `FILE_MAX_WHOLE_PIXELS`: most pixels in one frame of an image decoded whole into memory
   * (interlaced PNG, progressive JPEG, GIF, WebP; AVIF a quarter of it) (default 50 million).
   */
  maxWholePixels: number;
  /** `FILE_UPLOADS_PER_MINUTE`: uploads one person may start per minute (default 60). */
  uploadsPerMinute: number;
  /** `FILE_UPLOADS_AT_ONCE`: uploads one person may have under way at once, per process (default 4). */
  uploadsAtOnce: number;
  /** `FILE_DECODES_AT_ONCE`: images one process decodes at once; the others wait (default 2). */
  decodesAtOnce: number;
  /** Where files are kept: an S3-compatible bucket, or undefined for the database. */
  s3: S3Config | undefined;
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
  /** `IDP_SIGNUPS_PER_HOUR`: accounts one address may create per hour on the embedded provider (default 20). */
  idpSignupsPerHour: number;
  /** `TRUST_PROXY`: whose `X-Forwarded-For` names the client (default: nobody's). */
  trustProxy: TrustProxy;
  /** The AI assistant. */
  ai: AiConfig;
  /** Uploaded files. */
  files: FilesConfig;
  /** Live collaboration (server/collab/). */
  collab: CollabConfig;
}

/** Live collaboration over the WebSocket at `/api/collab`. */
export interface CollabConfig {
  /**
   * `REDIS_URL`: a Redis server (`redis://` or `rediss://`) through which several Inkwell
   * instances share live documents; undefined keeps them in this process.
   */
  redisUrl: string | undefined;
  /** `COLLAB_MAX_MESSAGE_BYTES`: largest WebSocket message accepted; larger closes the socket (default 8 MB). */
  maxMessageBytes: number;
  /**
   * When automatic versions are kept (server/versions/versionKeeper.ts): after a pause this long,
   * and at least this often while editing goes on. Fixed in production; tests shorten them.
   */
  versionTiming?: { pauseMs: number; everyMs: number };
}

const positiveInt = (max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().min(1, 'must be at least 1').max(max, `must be at most ${max}`));

const HOUR_MS = 60 * 60 * 1000;

const httpUrl = z
  .url({ protocol: /^https?$/, message: 'must be an http:// or https:// URL' })
  .transform((value) => value.replace(/\/+$/, ''));

/** More proxies than any real chain has; a bigger number is a typo. */
const MAX_PROXY_HOPS = 10;

/**
 * `TRUST_PROXY` as given: `false` or `0`, a number of hops, or a comma list of proxy addresses
 * and CIDR ranges. `true` is refused: trusting every hop would let any client name itself.
 */
const trustProxySchema = z.string().transform((value, ctx): TrustProxy => {
  const text = value.toLowerCase();
  if (text === 'false' || text === '0') return { kind: 'none' };
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops <= MAX_PROXY_HOPS) return { kind: 'hops', hops };
    ctx.addIssue({ code: 'custom', message: `must be at most ${MAX_PROXY_HOPS} hops` });
    return z.NEVER;
  }
  const ranges = text.split(',').map((item) => item.trim());
  const bad = ranges.find((range) => !isProxyRange(range));
  if (bad === undefined) return { kind: 'addresses', ranges };
  ctx.addIssue({
    code: 'custom',
    message: `must be false, a number of proxies, or a comma list of proxy addresses or CIDR ranges; ${JSON.stringify(bad.slice(0, 60))} is none of these`,
  });
  return z.NEVER;
});

/**
 * An IP address, or one with a `/prefix` no longer than its family allows. A `/0` range is
 * refused as `true` is: it trusts every address.
 */
function isProxyRange(range: string): boolean {
  const [address = '', prefix, extra] = range.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d{1,3}$/.test(prefix) && bits >= 1 && bits <= (family === 4 ? 32 : 128);
}

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
  IDP_SIGNUPS_PER_HOUR: positiveInt(1_000_000).default(20),
  TRUST_PROXY: trustProxySchema.default({ kind: 'none' }),
  // Kept with its query: Azure's older deployment URLs carry `?api-version=…`.
  AI_BASE_URL: httpUrl.optional(),
  // It goes into an HTTP header, where spaces or control characters would fail every request.
  AI_API_KEY: z
    .string()
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
    .optional(),
  AI_MODEL: z.string().max(200, 'must be at most 200 characters').optional(),
  AI_MAX_INPUT_CHARS: positiveInt(1_000_000).default(DEFAULT_AI_LIMITS.inputChars),
  AI_MAX_OUTPUT_TOKENS: positiveInt(1_000_000).default(DEFAULT_AI_LIMITS.outputTokens),
  AI_REQUESTS_PER_MINUTE: positiveInt(10_000).default(DEFAULT_AI_LIMITS.requestsPerMinute),
  // ai_usage counts in PostgreSQL integers.
  AI_DAILY_TOKEN_BUDGET: positiveInt(1_000_000_000).default(DEFAULT_AI_LIMITS.dailyTokenBudget),
  AI_FIRST_BYTE_TIMEOUT_MS: positiveInt(HOUR_MS).default(15_000),
  AI_IDLE_TIMEOUT_MS: positiveInt(HOUR_MS).default(30_000),
  AI_TOTAL_TIMEOUT_MS: positiveInt(HOUR_MS).default(120_000),
  FILE_MAX_BYTES: positiveInt(1024 * 1024 * 1024).default(DEFAULT_FILE_MAX_BYTES),
  // libvips' own ceiling on a PNG or JPEG side is 2^31; a billion pixels is gigabytes already.
  FILE_MAX_PIXELS: positiveInt(1_000_000_000).default(DEFAULT_FILE_MAX_PIXELS),
  FILE_MAX_WHOLE_PIXELS: positiveInt(1_000_000_000).default(DEFAULT_FILE_MAX_WHOLE_PIXELS),
  FILE_UPLOADS_PER_MINUTE: positiveInt(100_000).default(60),
  FILE_UPLOADS_AT_ONCE: positiveInt(1000).default(4),
  FILE_DECODES_AT_ONCE: positiveInt(1000).default(2),
  S3_BUCKET: z.string().max(255, 'must be at most 255 characters').optional(),
  S3_ENDPOINT: httpUrl.optional(),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]+$/, 'must be a region name such as us-east-1 or auto')
    .default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).default('false'),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  // A document's first sync carries all of it: room for the largest document's Yjs state.
  COLLAB_MAX_MESSAGE_BYTES: positiveInt(256 * 1024 * 1024).default(8 * 1024 * 1024),
});

const HOSTED_KEYS = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const;
const AI_KEYS = ['AI_BASE_URL', 'AI_MODEL'] as const;
const S3_KEY_PAIR = ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;

/** Thrown by `loadConfig` with one line per bad variable, naming it and the value it had. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Variables whose values are never echoed in an error message. */
const SECRET_KEYS = new Set([
  'OIDC_CLIENT_SECRET',
  'DATABASE_URL',
  'AI_API_KEY',
  'S3_SECRET_ACCESS_KEY',
  'REDIS_URL',
]);

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
  // Half an AI setup is a typo, not a choice to turn the assistant off: say so at start.
  const setAi = AI_KEYS.filter((key) => data[key] !== undefined);
  if ((setAi.length > 0 || data.AI_API_KEY !== undefined) && setAi.length < AI_KEYS.length) {
    const missing = AI_KEYS.filter((key) => data[key] === undefined);
    throw new ConfigError(
      `Invalid configuration:\n  the AI assistant needs ${AI_KEYS.join(' and ')}; missing ${missing.join(', ')}`,
    );
  }
  const setS3Keys = S3_KEY_PAIR.filter((key) => data[key] !== undefined);
  if (setS3Keys.length === 1) {
    throw new ConfigError(
      `Invalid configuration:\n  S3 credentials need both ${S3_KEY_PAIR.join(' and ')}; only ${setS3Keys[0]} is set`,
    );
  }
  // S3 settings without a bucket would silently keep files in the database.
  const strayS3 = ['S3_ENDPOINT', ...S3_KEY_PAIR].filter((key) => present[key] !== undefined);
  if (!data.S3_BUCKET && strayS3.length > 0) {
    throw new ConfigError(
      `Invalid configuration:\n  ${strayS3.join(', ')} set without S3_BUCKET; set S3_BUCKET to keep files in a bucket`,
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
    idpSignupsPerHour: data.IDP_SIGNUPS_PER_HOUR,
    trustProxy: data.TRUST_PROXY,
    ai: {
      provider:
        data.AI_BASE_URL && data.AI_MODEL
          ? { baseUrl: data.AI_BASE_URL, apiKey: data.AI_API_KEY, model: data.AI_MODEL }
          : undefined,
      maxInputChars: data.AI_MAX_INPUT_CHARS,
      maxOutputTokens: data.AI_MAX_OUTPUT_TOKENS,
      requestsPerMinute: data.AI_REQUESTS_PER_MINUTE,
      dailyTokenBudget: data.AI_DAILY_TOKEN_BUDGET,
      firstByteTimeoutMs: data.AI_FIRST_BYTE_TIMEOUT_MS,
      idleTimeoutMs: data.AI_IDLE_TIMEOUT_MS,
      totalTimeoutMs: data.AI_TOTAL_TIMEOUT_MS,
    },
    files: {
      maxBytes: data.FILE_MAX_BYTES,
      maxPixels: data.FILE_MAX_PIXELS,
      maxWholePixels: data.FILE_MAX_WHOLE_PIXELS,
      uploadsPerMinute: data.FILE_UPLOADS_PER_MINUTE,
      uploadsAtOnce: data.FILE_UPLOADS_AT_ONCE,
      decodesAtOnce: data.FILE_DECODES_AT_ONCE,
      s3: data.S3_BUCKET
        ? {
            bucket: data.S3_BUCKET,
            endpoint: data.S3_ENDPOINT,
            region: data.S3_REGION,
            credentials:
              data.S3_ACCESS_KEY_ID && data.S3_SECRET_ACCESS_KEY
                ? {
                    accessKeyId: data.S3_ACCESS_KEY_ID,
                    secretAccessKey: data.S3_SECRET_ACCESS_KEY,
                  }
                : undefined,
            forcePathStyle: data.S3_FORCE_PATH_STYLE === 'true',
          }
        : undefined,
    },
    collab: { redisUrl: data.REDIS_URL, maxMessageBytes: data.COLLAB_MAX_MESSAGE_BYTES },
  };
}
