/**
 * The environment of development tools. The server reads its own configuration only through
 * server/config.ts; tooling that starts processes comes here instead of touching process.env.
 */

/** The current environment with `overrides` applied, for a child process. */
export function childEnv(overrides: Record<string, string>): NodeJS.ProcessEnv {
  return { ...process.env, ...overrides };
}
