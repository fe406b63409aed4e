import { pino, type DestinationStream } from 'pino';

/** The levels `LOG_LEVEL` accepts, quietest last. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;

/** How much the server logs: a message is written when its level is at or above this one. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Structured fields logged beside a message (never secrets: see `REDACTED`). */
export type LogFields = Record<string, unknown>;

/** Where the server writes what happens to it: one JSON line per message (pino). */
export interface Logger {
  /** Detail for debugging, such as one line per request. */
  debug(message: string, fields?: LogFields): void;
  /** Something an operator wants to see, such as the address the server listens on. */
  info(message: string, fields?: LogFields): void;
  /** Something unexpected that the server recovered from. */
  warn(message: string, fields?: LogFields): void;
  /** A failure, with the error's stack when there is one. */
  error(message: string, error?: unknown, fields?: LogFields): void;
}

/** Field names whose values are replaced before a line is written, wherever they appear. */
const REDACTED = [
  'password',
  'secret',
  'clientSecret',
  'token',
  'idToken',
  'cookie',
  'authorization',
  'apiKey',
].flatMap((key) => [key, `*.${key}`]);

/** A logger that drops messages below `level`; lines go to stdout, or to `destination` (tests). */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const base = pino(
    {
      level,
      base: undefined,
      redact: { paths: REDACTED, censor: '[redacted]' },
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
  return {
    debug: (message, fields) => base.debug(fields ?? {}, message),
    info: (message, fields) => base.info(fields ?? {}, message),
    warn: (message, fields) => base.warn(fields ?? {}, message),
    error: (message, error, fields) =>
      base.error({ ...fields, ...(error === undefined ? {} : { err: error }) }, message),
  };
}
