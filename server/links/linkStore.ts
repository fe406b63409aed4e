import type * as Y from 'yjs';
import type { DocumentContent } from '../../common/api/documents.ts';
import type { Backlink, LinkedDocument } from '../../common/api/links.ts';
import {
  isWellFormedWikilink,
  wikilinkParts,
  type WikilinkParts,
} from '../../common/editor/dialects/wikilink/wikilinkSyntax.ts';
import {
  renamedTarget,
  TitleIndex,
  titleKey,
} from '../../common/editor/dialects/wikilink/wikilinkTarget.ts';
import { roleAtLeast } from '../../common/api/sharing.ts';
import type { Database, Queryable } from '../db/database.ts';
import { documentRole, readableIds } from '../documents/access.ts';
import { advanceLinksVersion, replaceContent } from '../documents/documentRows.ts';
import { renameWikilinkTargets } from './renameWikilinkTargets.ts';
import { forEachWikilink, linkRowsOf } from './wikilinksOf.ts';

/** Documents whose links are rebuilt per round trip to the database. */
const REFRESH_BATCH = 50;

interface TitleRow {
  id: string;
  title: string;
}

/** A document whose link rows are behind its content. */
interface StaleLinks {
  id: string;
  owner_id: string;
  content: unknown;
  version: number;
}

/** A link in another document that finds a document under some title. */
interface Candidate {
  source_id: string;
  source_title: string;
  target_path: string;
  links: number;
}

/**
 * Wikilinks between the documents one reader may read (their own and those shared with them):
 * backlinks, resolving targets, and rewriting links after a rename. Which documents those are is
 * decided by server/documents/access.ts (readableIds, documentRole): the titles of documents the
 * reader may not read are never seen, and links are rewritten only where the reader may write.
 * The link rows of a document carry its owner's id (`document_links.owner_id`).
 */
export class LinkStore {
  constructor(private readonly db: Database) {}

  /** The documents `targets` find, in order; null for a target that finds none. */
  async resolve(readerId: string, targets: string[]): Promise<Array<LinkedDocument | null>> {
    const titles = await this.titles(readerId);
    const index = new TitleIndex(titles);
    const byId = new Map(titles.map((row) => [row.id, row]));
    return targets.map((target) => {
      const id = index.resolve(target);
      const row = id === null ? undefined : byId.get(id);
      return row ? { id: row.id, title: row.title } : null;
    });
  }

  /**
   * The reader's other readable live documents with links that find document `id`, under its
   * title or under `asTitle` (its title before a rename); null when the reader may not read it.
   */
  async backlinks(readerId: string, id: string, asTitle?: string): Promise<Backlink[] | null> {
    if ((await this.title(this.db, readerId, id)) === null) return null;
    await this.refresh(readerId);
    const found = await this.linksTo(this.db, readerId, id, asTitle);
    if (!found) return null;
    const bySource = new Map<string, Backlink>();
    for (const row of found) {
      const entry = bySource.get(row.source_id);
      if (entry) entry.links += row.links;
      else
        bySource.set(row.source_id, {
          id: row.source_id,
          title: row.source_title,
          links: row.links,
        });
    }
    return [...bySource.values()].sort((a, b) => a.title.localeCompare(b.title));
  }

  /**
   * Document `id` was titled `from`: every link in the other live documents the writer may edit
   * that found it under that title is rewritten to its current title, each changed document
   * going up a version; documents the writer may only read keep their links. Null when the
   * writer may not edit document `id`; `unwritable` when the current title cannot
   * stand in a wikilink (it holds `[`, `]`, `|`, `#` or `^`). Documents without Yjs state are
   * written in one transaction; one with Yjs state (live collaboration) is handed to `editLive`
   * after it, whose edit sets only the links' targets in its live state: its stored JSON is
   * derived from that state seconds late, and writing it back would take back what editors typed
   * meanwhile. The counts are of what was rewritten, live or stored.
   */
  async renameLinks(
    writerId: string,
    id: string,
    from: string,
    editLive?: (id: string, edit: (fragment: Y.XmlFragment) => void) => Promise<void>,
  ): Promise<{ documents: number; links: number } | 'unwritable' | null> {
    if (!roleAtLeast(await documentRole(this.db, writerId, id, { trash: true }), 'editor')) {
      return null;
    }
    await this.refresh(writerId);
    const live: string[] = [];
    let rename: (parts: WikilinkParts) => string | null = () => null;
    const result = await this.db.transaction(async (tx) => {
      const current = await this.title(tx, writerId, id);
      if (current === null) return null;
      if (titleKey(current) === titleKey(from)) return { documents: 0, links: 0 };
      const probe = { target: current, fragment: '', alias: null, embed: false };
      if (current.trim() === '' || !isWellFormedWikilink(probe)) return 'unwritable';
      const found = (await this.linksTo(tx, writerId, id, from)) ?? [];
      const index = await this.indexAs(tx, writerId, id, from);
      rename = (parts) => {
        if (index.resolve(parts.target) !== id) return null;
        const next = renamedTarget(parts.target, from, current);
        return isWellFormedWikilink({ ...parts, target: next }) ? next : null;
      };
      const sources = [...new Set(found.map((row) => row.source_id))];
      let links = 0;
      let documents = 0;
      for (const source of sources) {
        const { rows } = await tx.query<{ content: DocumentContent; has_yjs: boolean }>(
          `SELECT content, has_yjs FROM documents
            WHERE id = $1 AND id IN (${readableIds('$2', 'editor')}) AND deleted_at IS NULL
            FOR UPDATE OF documents`,
          [source, writerId],
        );
        if (!rows[0]) continue;
        if (rows[0].has_yjs && editLive) {
          live.push(source);
          continue;
        }
        let changed = 0;
        forEachWikilink(rows[0].content, (attrs) => {
          const next = rename(wikilinkParts(attrs));
          if (next === null) return;
          attrs.target = next;
          changed += 1;
        });
        if (changed === 0) continue;
        await replaceContent(tx, source, rows[0].content);
        links += changed;
        documents += 1;
      }
      return { documents, links };
    });
    if (typeof result !== 'object' || result === null || !editLive) return result;
    for (const source of live) {
      let changed = 0;
      await editLive(source, (fragment) => {
        changed = renameWikilinkTargets(fragment, rename);
      });
      if (changed === 0) continue;
      result.links += changed;
      result.documents += 1;
    }
    return result;
  }

  /**
   * Rebuilds the link rows of the documents the reader may read saved since their links were
   * last read. Each document in its own transaction, and only when its links are still behind
   * the version read: a slower rebuild of an older version never overwrites a newer one.
   */
  async refresh(readerId: string): Promise<void> {
    for (;;) {
      const { rows } = await this.db.query<StaleLinks>(
        `SELECT id, owner_id, content, version FROM documents
          WHERE id IN (${readableIds('$1')}) AND links_version < version LIMIT ${REFRESH_BATCH}`,
        [readerId],
      );
      for (const row of rows) await this.rebuild(row);
      if (rows.length < REFRESH_BATCH) return;
    }
  }

  private async rebuild(row: StaleLinks): Promise<void> {
    const links = linkRowsOf(row.content);
    await this.db.transaction(async (tx) => {
      if (!(await advanceLinksVersion(tx, row.id, row.version))) return;
      await tx.query('DELETE FROM document_links WHERE source_id = $1', [row.id]);
      if (links.length === 0) return;
      await tx.query(
        `INSERT INTO document_links (source_id, owner_id, target_path, target_name, links)
         SELECT $1, $2, path, name, links
           FROM unnest($3::text[], $4::text[], $5::int[]) AS l (path, name, links)`,
        [
          row.id,
          row.owner_id,
          pgArray(links.map((link) => link.path)),
          pgArray(links.map((link) => link.name)),
          `{${links.map((link) => link.links).join(',')}}`,
        ],
      );
    });
  }

  /**
   * The links in other live documents the reader may read that find document `id` under
   * `asTitle` or its title.
   */
  private async linksTo(
    db: Queryable,
    readerId: string,
    id: string,
    asTitle?: string,
  ): Promise<Candidate[] | null> {
    const current = await this.title(db, readerId, id);
    if (current === null) return null;
    const title = asTitle ?? current;
    const key = titleKey(title);
    if (key === '') return [];
    const { rows } = await db.query<Candidate>(
      `SELECT l.source_id, d.title AS source_title, l.target_path, l.links
         FROM document_links l JOIN documents d ON d.id = l.source_id
        WHERE d.id IN (${readableIds('$1')}) AND d.deleted_at IS NULL AND d.id <> $2
          AND (l.target_path = $3 OR l.target_name = $3)`,
      [readerId, id, key],
    );
    if (rows.length === 0) return [];
    // A candidate's path may find another document first (an earlier one of the same title).
    const index = await this.indexAs(db, readerId, id, title);
    return rows.filter((row) => index.resolve(row.target_path) === id);
  }

  /** The reader's live documents by title, with document `id` titled `title`. */
  private async indexAs(
    db: Queryable,
    readerId: string,
    id: string,
    title: string,
  ): Promise<TitleIndex> {
    const titles = await this.titles(readerId, db);
    return new TitleIndex(titles.map((row) => (row.id === id ? { id, title } : row)));
  }

  /**
   * The live documents the reader may read, their own first, then oldest first: where titles
   * repeat, the reader's own document is found, and among equals the oldest.
   */
  private async titles(readerId: string, db: Queryable = this.db): Promise<TitleRow[]> {
    const { rows } = await db.query<TitleRow>(
      `SELECT id, title FROM documents
        WHERE id IN (${readableIds('$1')}) AND deleted_at IS NULL
        ORDER BY owner_id = $1 DESC, created_at, id`,
      [readerId],
    );
    return rows;
  }

  /** The title of document `id` if the reader may read it (its owner also in the trash), or null. */
  private async title(db: Queryable, readerId: string, id: string): Promise<string | null> {
    if ((await documentRole(db, readerId, id, { trash: true })) === null) return null;
    const { rows } = await db.query<{ title: string }>(
      'SELECT title FROM documents WHERE id = $1',
      [id],
    );
    return rows[0]?.title ?? null;
  }
}

/** A PostgreSQL array literal of text, every element quoted. */
function pgArray(values: string[]): string {
  return `{${values.map((value) => `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}
