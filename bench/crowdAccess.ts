import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DocumentContent } from '../common/api/documents.ts';
import { seededRandom } from '../common/test/seededRandom.ts';
import { openDatabase, type Database } from '../server/db/database.ts';
import { migrate } from '../server/db/migrate.ts';
import { documentAccess, documentRole } from '../server/documents/access.ts';
import { DocumentStore } from '../server/documents/documentStore.ts';
import { startPostgresServer } from '../server/test/postgresServer.ts';
import { seedOwners, shareDocument, type Kind } from './collabServers.ts';

/*
 * What the access check costs (collabCrowd). A GET of a document and a socket's admission each
 * ask `documentRole` (server/documents/access.ts) one query; the rest of their work does not
 * change with it. So the check is timed where it runs, against the same database the server
 * would use (PGlite in this process, as the server holds it; PostgreSQL over loopback, as the
 * server reaches it), seeded as the crowd's: one document shared with a thousand people, among
 * two hundred others.
 */

/** Rounds of each measure (`CROWD_ACCESS_ROUNDS`), after as many unmeasured. */
export const ACCESS_ROUNDS = Number(process.env.CROWD_ACCESS_ROUNDS ?? 400);
const PEOPLE = 1000;
const OTHER_DOCUMENTS = 200;

/** Timings of one database, in ms. */
export interface AccessMeasured {
  /** The GET's read of the document after its access check. */
  getWithCheck: number[];
  /** The same read alone, as before access was a question. */
  getWithout: number[];
  /** The live socket's admission query (`documentAccess`), all the database work admission does. */
  admission: number[];
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** Times the access check on a fresh database of `kind`; null when PostgreSQL is not installed. */
export async function accessCost(
  kind: Kind,
  content: DocumentContent,
  other: DocumentContent,
): Promise<AccessMeasured | null> {
  const tmp = await mkdtemp(join(tmpdir(), 'inkwell-bench-access-'));
  const postgres = kind === 'postgres' ? await startPostgresServer({ required: false }) : null;
  let db: Database | undefined;
  try {
    if (kind === 'postgres' && !postgres) return null;
    db = await openDatabase(
      postgres ? { kind: 'postgres', url: postgres.url } : { kind: 'pglite', dataDir: tmp },
    );
    await migrate(db);
    const [owner] = await seedOwners(db, 'owner', 1, 0, [content]);
    const people = await seedOwners(db, 'person', PEOPLE, 0, []);
    await seedOwners(db, 'other', OTHER_DOCUMENTS, 0, [other]);
    const documentId = owner!.documentIds[0]!;
    const ids = people.map((person) => person.userId);
    await shareDocument(db, documentId, ids.slice(0, PEOPLE / 2), 'editor');
    await shareDocument(db, documentId, ids.slice(PEOPLE / 2), 'viewer');
    const store = new DocumentStore(db);
    const random = seededRandom(11);
    const someone = () => ids[Math.floor(random() * ids.length)]!;
    const read = () => store.get(owner!.userId, documentId);
    const measured: AccessMeasured = { getWithCheck: [], getWithout: [], admission: [] };
    for (let round = 0; round < 2 * ACCESS_ROUNDS; round++) {
      const keep = round >= ACCESS_ROUNDS;
      // A B B A: neither side always runs on the warmer cache.
      const checkFirst = round % 2 === 0;
      const withCheck = () =>
        timed(async () => {
          if (!(await documentRole(db!, someone(), documentId))) throw new Error('no role');
          await read();
        });
      const without = () => timed(read);
      const first = await (checkFirst ? withCheck() : without());
      const second = await (checkFirst ? without() : withCheck());
      const admission = await timed(() => documentAccess(db!, someone(), documentId));
      if (!keep) continue;
      measured.getWithCheck.push(checkFirst ? first : second);
      measured.getWithout.push(checkFirst ? second : first);
      measured.admission.push(admission);
    }
    return measured;
  } finally {
    await db?.close();
    await postgres?.stop();
    await rm(tmp, { recursive: true, force: true });
  }
}
