import type { Database } from './database.ts';

/**
 * How bytes go in and out of a bytea column on this database. On PGlite they travel as base64
 * text through `decode`/`encode`, about ten times faster than its own bytea conversion in
 * JavaScript; node-postgres sends and reads bytea natively.
 */
export interface Bytea {
  /** The SQL for parameter `param` (`$2`) as bytea. */
  in(param: string): string;
  /** The SQL selecting `column` as the driver should read it, as `alias` (the column's name). */
  out(column: string, alias?: string): string;
  /** `bytes` as the parameter value {@link in} expects. */
  param(bytes: Uint8Array): string | Uint8Array;
  /** A value read through {@link out} as bytes. */
  read(value: string | Uint8Array): Uint8Array;
}

/** The bytea conversions for `db`. */
export function byteaOf(db: Pick<Database, 'kind'>): Bytea {
  const pglite = db.kind === 'pglite';
  return {
    in: (param) => (pglite ? `decode(${param}, 'base64')` : param),
    out: (column, alias = column) =>
      pglite ? `encode(${column}, 'base64') AS ${alias}` : `${column} AS ${alias}`,
    param: (bytes) => (pglite ? Buffer.from(bytes).toString('base64') : bytes),
    read: (value) => (typeof value === 'string' ? Buffer.from(value, 'base64') : value),
  };
}
