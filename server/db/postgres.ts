import pg from 'pg';
import type { Database, QueryResult, Queryable, SqlParam } from './database.ts';

/** Connections per server process; PostgreSQL's default limit of 100 leaves room for several. */
const POOL_SIZE = 10;

/** Connects to a PostgreSQL server at `url` (a `postgres://` connection string). */
export async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE });
  // An idle connection the server drops would otherwise crash the process with an unhandled error.
  pool.on('error', () => undefined);
  // Fail at start, with the server's reason, rather than on the first request.
  const client = await pool.connect();
  client.release();
  let closing: Promise<void> | undefined;
  return {
    kind: 'postgres',
    query: (sql, params) => run(pool, sql, params),
    transaction: async (work) => {
      const conn = await pool.connect();
      try {
        await conn.query('BEGIN');
        const result = await work(wrap(conn));
        await conn.query('COMMIT');
        return result;
      } catch (error) {
        await conn.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        conn.release();
      }
    },
    exec: async (sql) => {
      await pool.query(sql);
    },
    // Safe to call twice, as PGlite's is; the pool itself throws on a second end().
    close: () => (closing ??= pool.end()),
  };
}

function wrap(conn: pg.PoolClient): Queryable {
  return {
    query: (sql, params) => run(conn, sql, params),
    // Without parameters node-postgres uses the simple protocol, which takes several statements.
    exec: async (sql) => {
      await conn.query(sql);
    },
  };
}

/** Most distinct statements prepared; Inkwell has a few dozen. */
const MAX_PREPARED = 500;

/** Names of the statements prepared so far, by their text: the same for every connection. */
const statementNames = new Map<string, string>();

/**
 * The name a parameterised statement is prepared under. node-postgres prepares a named
 * statement once per connection and then only binds and executes it, so the server parses and
 * plans the hot statements (the session lookup, a document save) once, not on every request.
 */
function statementName(sql: string): string | undefined {
  let name = statementNames.get(sql);
  // The server's statements are a fixed set; should texts ever vary per request, later ones
  // stay unnamed rather than fill every connection with prepared statements.
  if (!name && statementNames.size < MAX_PREPARED) {
    name = `inkwell_${statementNames.size + 1}`;
    statementNames.set(sql, name);
  }
  return name;
}

async function run<Row>(
  target: pg.Pool | pg.PoolClient,
  sql: string,
  params: readonly SqlParam[] | undefined,
): Promise<QueryResult<Row>> {
  const result = params
    ? await target.query({ name: statementName(sql), text: sql, values: [...params] })
    : await target.query(sql);
  return { rows: result.rows as Row[], rowCount: result.rowCount ?? result.rows.length };
}
