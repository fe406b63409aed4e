/**
 * The `coldStart` benchmark's baseline, run as its own process:
 * `node --import tsx bench/bareDatabaseStart.ts <PGlite folder>`.
 *
 * Opens (or, in an empty folder, creates) the embedded database through Inkwell's own database
 * layer, answers one query, says `ready` and exits: the least any start on PGlite has to do.
 */
import { openDatabase } from '../server/db/database.ts';

const dataDir = process.argv[2];
if (!dataDir) {
  process.stderr.write('usage: bareDatabaseStart.ts <PGlite folder>\n');
  process.exit(2);
}
const db = await openDatabase({ kind: 'pglite', dataDir });
await db.query('SELECT 1');
console.log('ready');
await db.close();
