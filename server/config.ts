import { z } from 'zod';
import { LOG_LEVELS, type LogLevel } from './logger.ts';

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
});

/** Thrown by `loadConfig` with one line per bad variable, naming it and the value it had. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

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
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const key = String(issue.path[0]);
      return `  ${key}=${JSON.stringify(present[key])}: ${issue.message}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const { PORT, HOST, NODE_ENV, LOG_LEVEL } = parsed.data;
  return { port: PORT, host: HOST, nodeEnv: NODE_ENV, logLevel: LOG_LEVEL };
}
