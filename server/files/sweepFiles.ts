import type { Database } from '../db/database.ts';
import type { FileStorage } from './fileStorage.ts';
import { FileStore } from './fileStore.ts';

/** Files younger than this are kept: an upload may still be on its way into a document. */
export const SWEEP_MIN_AGE_MS = 60 * 60 * 1000;

/**
 * Every `/files/<id>` that any document holds, the trash included, and any version still kept
 * (their ids are listed when they are kept, versions/versionStore.ts). The whole content is
 * searched as text rather than image `src` attributes only, so that a reference in a link, in raw
 * HTML or in the `src` of an imported vault's image embed (`![[diagram.png]]`) keeps its file
 * too: the sweep errs on the side of keeping.
 */
const REFERENCED = `
  SELECT DISTINCT lower(m[1])::uuid AS id
    FROM documents,
         regexp_matches(content::text, '/files/([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})', 'g') AS m
  UNION
  SELECT DISTINCT unnest(file_ids) AS id FROM document_versions`;

/**
 * Removes files that no document references (pending ones cut off by a crash among them), unless
 * they were uploaded less than `minAgeMs` ago; resolves with how many went. Runs after a document
 * is deleted forever, and every hour. Bytes go before the row, so that a failure leaves a row to
 * try again rather than bytes nobody knows of.
 */
export async function sweepFiles(
  db: Database,
  storage: FileStorage,
  minAgeMs = SWEEP_MIN_AGE_MS,
): Promise<number> {
  const age = [minAgeMs / 1000];
  const old = 'created_at < now() - make_interval(secs => $1::double precision)';
  // Reading every document is the costly part: skipped unless some file is old enough to go.
  const candidates = await db.query(`SELECT 1 FROM files WHERE ${old} LIMIT 1`, age);
  if (candidates.rows.length === 0) return 0;
  // MATERIALIZED: the documents are read once, not once per file.
  const { rows } = await db.query<{ id: string }>(
    `WITH referenced AS MATERIALIZED (${REFERENCED})
     SELECT f.id FROM files f
      WHERE f.${old}
        AND NOT EXISTS (SELECT 1 FROM referenced r WHERE r.id = f.id)`,
    age,
  );
  const files = new FileStore(db);
  for (const { id } of rows) {
    await storage.delete(id);
    await files.remove(id);
  }
  return rows.length;
}
