import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SERVER = fileURLToPath(new URL('../', import.meta.url));

/**
 * A statement that writes the `documents` table itself: `documents` as a whole word, so
 * document_yjs, document_links, document_shares and the like are other tables.
 */
const WRITES_DOCUMENTS =
  /\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(?:public\.)?"?documents"?(?![\w"])/gi;

/** Each server source file (tests left out) and the statements in it that write `documents`. */
function writersOfDocuments(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const path of readdirSync(SERVER, { recursive: true, encoding: 'utf8' })) {
    if (!path.endsWith('.ts') || path.endsWith('.test.ts')) continue;
    const statements = readFileSync(SERVER + path, 'utf8').match(WRITES_DOCUMENTS);
    if (statements) found.set(path.replaceAll('\\', '/'), statements);
  }
  return found;
}

describe('the documents table', () => {
  it('is written only by server/documents/', () => {
    const writers = writersOfDocuments();
    // The scan sees the owner's own statements, so an empty answer below is not a blind regex.
    expect(writers.get('documents/documentStore.ts')?.length).toBeGreaterThan(0);
    const outside = [...writers].filter(([path]) => !path.startsWith('documents/'));
    expect(outside).toEqual([]);
  });

  it('tells the table apart from its neighbours', () => {
    const matches = (sql: string) => sql.match(WRITES_DOCUMENTS) ?? [];
    expect(matches('UPDATE document_yjs SET state = $2')).toEqual([]);
    expect(matches('DELETE FROM document_links WHERE source_id = $1')).toEqual([]);
    expect(matches('INSERT INTO document_shares (document_id) VALUES ($1)')).toEqual([]);
    expect(matches('UPDATE documents_archive SET x = 1')).toEqual([]);
    expect(matches('update documents set x = 1')).toHaveLength(1);
    expect(matches('INSERT INTO "documents" (id) VALUES ($1)')).toHaveLength(1);
  });
});
