/** The levels `LOG_LEVEL` accepts, quietest last. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;

/** How much the server logs: a message is written when its level is at or above this one. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Where the server writes what happens to it: one line per message, to stdout or stderr. */
export interface Logger {
  /** Detail for debugging, such as one line per request. */
  debug(message: string): void;
  /** Something an operator wants to see, such as the address the server listens on. */
  info(message: string): void;
  /** Something unexpected that the server recovered from. */
  warn(message: string): void;
  /** A failure, with the error's stack when there is one. */
  error(message: string, error?: unknown): void;
}

/** Where the lines go; tests pass their own to capture them. */
export interface LogSink {
  /** Receives debug and info lines. */
  out(line: string): void;
  /** Receives warn and error lines. */
  err(line: string): void;
}

const consoleSink: LogSink = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** A logger that drops messages below `level`. */
export function createLogger(level: LogLevel, sink: LogSink = consoleSink): Logger {
  const threshold = LOG_LEVELS.indexOf(level);
  const enabled = (at: LogLevel) => LOG_LEVELS.indexOf(at) >= threshold;
  return {
    debug: (message) => {
      if (enabled('debug')) sink.out(message);
    },
    info: (message) => {
      if (enabled('info')) sink.out(message);
    },
    warn: (message) => {
      if (enabled('warn')) sink.err(message);
    },
    error: (message, error) => {
      if (!enabled('error')) return;
      const detail = error instanceof Error ? (error.stack ?? error.message) : error;
      sink.err(detail === undefined ? message : `${message}\n${String(detail)}`);
    },
  };
}
