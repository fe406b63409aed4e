import { expect, it } from 'vitest';
import { describeEachDatabase } from '../test/databases.ts';
import type { Queryable } from './database.ts';

async function insertUser(db: Queryable, subject = 'alice'): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    'INSERT INTO users (issuer, subject) VALUES ($1, $2) RETURNING id',
    ['https://idp.test', subject],
  );
  return rows[0]!.id;
}

async function countUsers(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
  return rows[0]!.n;
}

describeEachDatabase('database', (getDb) => {
  it('runs a query with $n parameters of every kind', async () => {
    const { rows } = await getDb().query(
      `SELECT $1::int + $2::int AS sum, $3::text AS label, $4::boolean AS flag,
              $5::text IS NULL AS missing, length($6::bytea) AS bytes`,
      [2, 3, 'ünïcode ✓', true, null, new Uint8Array([0, 1, 255])],
    );
    expect(rows).toEqual([{ sum: 5, label: 'ünïcode ✓', flag: true, missing: true, bytes: 3 }]);
  });

  it('round-trips jsonb sent as JSON text with a ::jsonb cast', async () => {
    const value = { blocks: [{ type: 'paragraph', text: 'é "quoted" \n' }], n: 1.5, none: null };
    await getDb().query('INSERT INTO server_secrets (name, value) VALUES ($1, $2::jsonb)', [
      'k',
      JSON.stringify(value),
    ]);
    const { rows } = await getDb().query<{ value: unknown }>(
      'SELECT value FROM server_secrets WHERE name = $1',
      ['k'],
    );
    expect(rows[0]!.value).toEqual(value);
  });

  it('returns timestamptz columns as Date objects', async () => {
    const at = new Date('2024-02-29T23:59:58.123Z');
    const { rows } = await getDb().query<{ at: unknown; now: unknown }>(
      'SELECT $1::timestamptz AS at, now() AS now',
      [at],
    );
    expect(rows[0]!.at).toBeInstanceOf(Date);
    expect((rows[0]!.at as Date).toISOString()).toBe(at.toISOString());
    expect(rows[0]!.now).toBeInstanceOf(Date);
  });

  it('commits a transaction that resolves and returns its value', async () => {
    const result = await getDb().transaction(async (tx) => {
      await insertUser(tx, 'alice');
      await insertUser(tx, 'bob');
      return countUsers(tx);
    });
    expect(result).toBe(2);
    expect(await countUsers(getDb())).toBe(2);
  });

  it('rolls back a transaction that throws and rethrows the same error', async () => {
    await insertUser(getDb(), 'before');
    const failure = new Error('work failed');
    await expect(
      getDb().transaction(async (tx) => {
        await insertUser(tx, 'inside');
        await tx.exec("UPDATE users SET name = 'changed'");
        throw failure;
      }),
    ).rejects.toBe(failure);
    const { rows } = await getDb().query('SELECT subject, name FROM users');
    expect(rows).toEqual([{ subject: 'before', name: null }]);
  });

  it('answers the same statement again and again, and hundreds of distinct ones', async () => {
    const db = getDb();
    // PostgreSQL prepares each statement text once per connection, up to a cap: both before
    // and past it, every answer is the one asked for.
    for (let i = 0; i < 3; i++) {
      expect((await db.query<{ n: number }>('SELECT $1::int + 1 AS n', [i])).rows).toEqual([
        { n: i + 1 },
      ]);
    }
    for (let i = 0; i < 520; i++) {
      const { rows } = await db.query<{ n: number }>(`SELECT $1::int + ${i} AS n`, [1]);
      expect(rows[0]?.n).toBe(i + 1);
    }
  });

  it('counts rows the same way on both drivers', async () => {
    const db = getDb();
    const rowCount = async (sql: string) => (await db.query(sql)).rowCount;
    const window = "'2024-01-01T00:00:00Z'";
    expect(
      await rowCount(
        `INSERT INTO rate_limits VALUES ('a', ${window}, 1), ('b', ${window}, 2), ('c', ${window}, 3)`,
      ),
    ).toBe(3);
    expect(await rowCount('SELECT * FROM rate_limits')).toBe(3);
    expect(await rowCount("SELECT * FROM rate_limits WHERE key = 'none'")).toBe(0);
    expect(await rowCount('UPDATE rate_limits SET hits = hits + 1 WHERE hits >= 2')).toBe(2);
    expect(await rowCount('UPDATE rate_limits SET hits = 0 WHERE hits > 100')).toBe(0);
    expect(await rowCount('UPDATE rate_limits SET hits = 0 WHERE hits > 2 RETURNING key')).toBe(2);
    expect(
      await rowCount(`INSERT INTO rate_limits VALUES ('a', ${window}, 1) ON CONFLICT DO NOTHING`),
    ).toBe(0);
    expect(await rowCount("DELETE FROM rate_limits WHERE key = 'a'")).toBe(1);
  });

  it('reports a unique violation with code 23505 and the constraint name', async () => {
    await insertUser(getDb(), 'alice');
    await expect(insertUser(getDb(), 'alice')).rejects.toMatchObject({
      code: '23505',
      constraint: 'users_issuer_subject_key',
    });
    await expect(getDb().transaction((tx) => insertUser(tx, 'alice'))).rejects.toMatchObject({
      code: '23505',
    });
    expect(await countUsers(getDb())).toBe(1);
  });

  it('finds documents through the search vector, title before body', async () => {
    const owner = await insertUser(getDb());
    const docs = [
      ['Garden plans', 'Tomatoes and beans by the fence.'],
      ['Quarterly report', 'Revenue grew; the garden budget is a draft.'],
      ['Budget', 'The final budget for the office.'],
    ];
    for (const [title, text] of docs) {
      await getDb().query(
        `INSERT INTO documents (owner_id, title, content, plain_text, search)
         VALUES ($1, $2, '{}'::jsonb, $3,
                 setweight(to_tsvector('simple', $2), 'A') || setweight(to_tsvector('simple', $3), 'B'))`,
        [owner, title!, text!],
      );
    }
    const search = async (terms: string) => {
      const { rows } = await getDb().query<{ title: string }>(
        `SELECT title FROM documents, websearch_to_tsquery('simple', $1) AS q
          WHERE search @@ q ORDER BY ts_rank(search, q) DESC, title`,
        [terms],
      );
      return rows.map((row) => row.title);
    };
    expect(await search('garden')).toEqual(['Garden plans', 'Quarterly report']);
    expect(await search('"garden budget"')).toEqual(['Quarterly report']);
    expect(await search('budget -draft')).toEqual(['Budget']);
    expect(await search('tomatoes or office')).toEqual(['Budget', 'Garden plans']);
    expect(await search('GARDEN plans')).toEqual(['Garden plans']);
  });
});

describeEachDatabase("each test's database", (getDb) => {
  it('can be left with rows and a new table', async () => {
    await insertUser(getDb(), 'left-behind');
    await getDb().exec('CREATE TABLE scratch (id int)');
    expect(await countUsers(getDb())).toBe(1);
  });

  it('starts migrated and empty, whatever the test before left', async () => {
    expect(await countUsers(getDb())).toBe(0);
    const { rows } = await getDb().query("SELECT to_regclass('scratch') AS scratch");
    expect(rows).toEqual([{ scratch: null }]);
  });

  it('can be closed by the test', async () => {
    await getDb().close();
    await expect(getDb().query('SELECT 1')).rejects.toThrow();
  });

  it('is replaced after the test before closed it', async () => {
    expect(await countUsers(getDb())).toBe(0);
  });
});
