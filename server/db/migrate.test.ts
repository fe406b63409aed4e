import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../test/databases.ts';
import type { Queryable } from './database.ts';
import { migrate } from './migrate.ts';

const MIGRATIONS = (await readdir(fileURLToPath(new URL('./migrations/', import.meta.url))))
  .filter((name) => name.endsWith('.sql'))
  .sort();

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'inkwell-migrations-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** A folder of migrations named like the real ones, holding `files` (name → SQL). */
async function migrationsDir(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(scratch, 'set-'));
  await Promise.all(Object.entries(files).map(([name, sql]) => writeFile(join(dir, name), sql)));
  return dir;
}

async function tableExists(db: Queryable, name: string): Promise<boolean> {
  const { rows } = await db.query<{ found: boolean }>(
    'SELECT to_regclass($1) IS NOT NULL AS found',
    [name],
  );
  return rows[0]!.found;
}

async function recorded(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    'SELECT name FROM schema_migrations ORDER BY name',
  );
  return rows.map((row) => row.name);
}

describeEachDatabase(
  'migrate',
  (getDb) => {
    it('applies every migration in name order and records each once', async () => {
      expect(MIGRATIONS.length).toBeGreaterThan(0);
      expect(await migrate(getDb())).toEqual(MIGRATIONS);
      expect(await recorded(getDb())).toEqual(MIGRATIONS);
      expect(await tableExists(getDb(), 'documents')).toBe(true);
    });

    it('applies nothing when run a second time', async () => {
      await migrate(getDb());
      expect(await migrate(getDb())).toEqual([]);
      expect(await recorded(getDb())).toEqual(MIGRATIONS);
    });

    it('lets two instances migrate at once: one applies, the other waits and finds nothing to do', async () => {
      const runs = await Promise.all([migrate(getDb()), migrate(getDb())]);
      expect(runs).toContainEqual(MIGRATIONS);
      expect(runs).toContainEqual([]);
      expect(await recorded(getDb())).toEqual(MIGRATIONS);
    });

    it('applies only the migrations added since the last run', async () => {
      const first = { '0001_alpha.sql': 'CREATE TABLE alpha (id int);' };
      await migrate(getDb(), { dir: await migrationsDir(first) });
      const both = { ...first, '0002_beta.sql': 'CREATE TABLE beta (id int);' };
      expect(await migrate(getDb(), { dir: await migrationsDir(both) })).toEqual(['0002_beta.sql']);
      expect(await recorded(getDb())).toEqual(['0001_alpha.sql', '0002_beta.sql']);
    });

    it('rolls back the whole run when a migration fails, then applies it once fixed', async () => {
      const good = { '0001_alpha.sql': 'CREATE TABLE alpha (id int);' };
      const broken = {
        ...good,
        '0002_beta.sql': 'CREATE TABLE beta (id int);\nSELECT * FROM no_such_table;',
      };
      await expect(migrate(getDb(), { dir: await migrationsDir(broken) })).rejects.toThrow(
        /no_such_table/,
      );
      for (const table of ['alpha', 'beta', 'schema_migrations']) {
        expect(await tableExists(getDb(), table)).toBe(false);
      }

      const fixed = { ...good, '0002_beta.sql': 'CREATE TABLE beta (id int);' };
      expect(await migrate(getDb(), { dir: await migrationsDir(fixed) })).toEqual([
        '0001_alpha.sql',
        '0002_beta.sql',
      ]);
      expect(await tableExists(getDb(), 'beta')).toBe(true);
    });

    it('ignores files that are not .sql', async () => {
      const dir = await migrationsDir({
        '0001_alpha.sql': 'CREATE TABLE alpha (id int);',
        'README.md': 'not SQL',
      });
      expect(await migrate(getDb(), { dir })).toEqual(['0001_alpha.sql']);
    });
  },
  { migrated: false },
);
