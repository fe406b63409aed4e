/** A value a query parameter may take; objects go in as JSON text with a `::jsonb` cast. */
export type SqlParam = string | number | boolean | null | Date | Uint8Array;

/** What a query returns, the same for PGlite and node-postgres. */
export interface QueryResult<Row> {
  /** The rows, with columns parsed by the driver (timestamptz → Date, jsonb → value). */
  rows: Row[];
  /** Rows inserted, updated or deleted; the row count for a SELECT. */
  rowCount: number;
}

/** Something queries can run on: the database itself or an open transaction. */
export interface Queryable {
  /** Runs one statement with `$1`-style parameters. */
  query<Row = Record<string, unknown>>(
    sql: string,
    params?: readonly SqlParam[],
  ): Promise<QueryResult<Row>>;
  /** Runs several `;`-separated statements with no parameters (migrations). */
  exec(sql: string): Promise<void>;
}

/** The database the server keeps everything in: embedded PGlite or a PostgreSQL server. */
export interface Database extends Queryable {
  /** `pglite` for the embedded database, `postgres` for a server reached through `DATABASE_URL`. */
  readonly kind: 'pglite' | 'postgres';
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Finishes queries in flight and closes the database; later queries fail. */
  close(): Promise<void>;
}

/** Where the database lives. */
export type DatabaseLocation =
  { kind: 'pglite'; dataDir: string | undefined } | { kind: 'postgres'; url: string };

/** Opens the database at `location`; run `migrate` on it before use. */
export async function openDatabase(location: DatabaseLocation): Promise<Database> {
  if (location.kind === 'postgres') {
    const { openPostgres } = await import('./postgres.ts');
    return openPostgres(location.url);
  }
  const { openPglite } = await import('./pglite.ts');
  return openPglite(location.dataDir);
}
