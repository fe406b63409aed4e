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
import type { Database, Queryable } from '../db/database.ts';
import { renameWikilinkTargets } from './renameWikilinkTargets.ts';
import { forEachWikilink, linkRowsOf } from './wikilinksOf.ts';

/** Documents whose links are rebuilt per round trip to the database. */
const REFRESH_BATCH = 50;

interface TitleRow {
  id: string;
  title: string;
}

/** A link in another document that finds a document under some title. */
interface Candidate {
  source_id: string;
  source_title: string;
  target_path: string;
  links: number;
}

/**
 * Wikilinks between one writer's documents: backlinks, resolving targets, and rewriting links
 * after a rename. Every query is scoped to `ownerId`: another writer's titles are never seen.
 */
export class LinkStore {
  constructor(private readonly db: Database) {}

  /** The documents `targets` find, in order; null for a target that finds none. */
  async resolve(ownerId: string, targets: string[]): Promise<Array<LinkedDocument | null>> {
    const titles = await this.titles(ownerId);
    const index = new TitleIndex(titles);
    const byId = new Map(titles.map((row) => [row.id, row]));
    return targets.map((target) => {
      const id = index.resolve(target);
      const row = id === null ? undefined : byId.get(id);
      return row ? { id: row.id, title: row.title } : null;
    });
  }

  /**
   * The writer's other live documents with links that find document `id`, under its title or
   * under `asTitle` (its title before a rename); null when there is no such document.
   */
  async backlinks(ownerId: string, id: string, asTitle?: string): Promise<Backlink[] | null> {
    await this.refresh(ownerId);
    const found = await this.linksTo(this.db, ownerId, id, asTitle);
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
   * Document `id` was titled `from`: every link in the writer's other live documents that found
   * it under that title is rewritten to its current title, each changed document going up a
   * version. Null when there is no such document; `unwritable` when the current title cannot
   * stand in a wikilink (it holds `[`, `]`, `|`, `#` or `^`). Documents without Yjs state are
   * written in one transaction; one with Yjs state (live collaboration) is handed to `editLive`
   * after it, whose edit sets only the links' targets in its live state: its stored JSON is
   * derived from that state seconds late, and writing it back would take back what editors typed
   * meanwhile. The counts are of what was rewritten, live or stored.
   */
  async renameLinks(
    ownerId: string,
    id: string,
    from: string,
    editLive?: (id: string, edit: (fragment: Y.XmlFragment) => void) => Promise<void>,
  ): Promise<{ documents: number; links: number } | 'unwritable' | null> {
    await this.refresh(ownerId);
    const live: string[] = [];
    let rename: (parts: WikilinkParts) => string | null = () => null;
    const result = await this.db.transaction(async (tx) => {
      const current = await this.title(tx, ownerId, id);
      if (current === null) return null;
      if (titleKey(current) === titleKey(from)) return { documents: 0, links: 0 };
      const probe = { target: current, fragment: '', alias: null, embed: false };
      if (current.trim() === '' || !isWellFormedWikilink(probe)) return 'unwritable';
      const found = (await this.linksTo(tx, ownerId, id, from)) ?? [];
      const index = await this.indexAs(tx, ownerId, id, from);
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
            WHERE id = $1 AND owner_id = $2 AND deleted_at IS NULL FOR UPDATE`,
          [source, ownerId],
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
        await tx.query(
          `UPDATE documents SET content = $3::jsonb, version = version + 1, updated_at = now()
            WHERE id = $1 AND owner_id = $2`,
          [source, ownerId, JSON.stringify(rows[0].content)],
        );
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
   * Rebuilds the link rows of the writer's documents saved since their links were last read.
   * Each document in its own transaction, and only when its links are still behind the version
   * read: a slower rebuild of an older version never overwrites a newer one.
   */
  async refresh(ownerId: string): Promise<void> {
    for (;;) {
      const { rows } = await this.db.query<{ id: string; content: unknown; version: number }>(
        `SELECT id, content, version FROM documents
          WHERE owner_id = $1 AND links_version < version LIMIT ${REFRESH_BATCH}`,
        [ownerId],
      );
      for (const row of rows) await this.rebuild(ownerId, row);
      if (rows.length < REFRESH_BATCH) return;
    }
  }

  private async rebuild(
    ownerId: string,
    row: { id: string; content: unknown; version: number },
  ): Promise<void> {
    const links = linkRowsOf(row.content);
    await this.db.transaction(async (tx) => {
      const { rowCount } = await tx.query(
        `UPDATE documents SET links_version = $3
          WHERE id = $1 AND owner_id = $2 AND links_version < $3`,
        [row.id, ownerId, row.version],
      );
      if (rowCount === 0) return;
      await tx.query('DELETE FROM document_links WHERE source_id = $1', [row.id]);
      if (links.length === 0) return;
      await tx.query(
        `INSERT INTO document_links (source_id, owner_id, target_path, target_name, links)
         SELECT $1, $2, path, name, links
           FROM unnest($3::text[], $4::text[], $5::int[]) AS l (path, name, links)`,
        [
          row.id,
          ownerId,
          pgArray(links.map((link) => link.path)),
          pgArray(links.map((link) => link.name)),
          `{${links.map((link) => link.links).join(',')}}`,
        ],
      );
    });
  }

  /** The links in other live documents that find document `id` under `asTitle` or its title. */
  private async linksTo(
    db: Queryable,
    ownerId: string,
    id: string,
    asTitle?: string,
  ): Promise<Candidate[] | null> {
    const current = await this.title(db, ownerId, id);
    if (current === null) return null;
    const title = asTitle ?? current;
    const key = titleKey(title);
    if (key === '') return [];
    const { rows } = await db.query<Candidate>(
      `SELECT l.source_id, d.title AS source_title, l.target_path, l.links
         FROM document_links l JOIN documents d ON d.id = l.source_id
        WHERE l.owner_id = $1 AND d.owner_id = $1 AND d.deleted_at IS NULL AND d.id <> $2
          AND (l.target_path = $3 OR l.target_name = $3)`,
      [ownerId, id, key],
    );
    if (rows.length === 0) return [];
    // A candidate's path may find another document first (an earlier one of the same title).
    const index = await this.indexAs(db, ownerId, id, title);
    return rows.filter((row) => index.resolve(row.target_path) === id);
  }

  /** The writer's live documents by title, with document `id` titled `title`. */
  private async indexAs(
    db: Queryable,
    ownerId: string,
    id: string,
    title: string,
  ): Promise<TitleIndex> {
    const titles = await this.titles(ownerId, db);
    return new TitleIndex(titles.map((row) => (row.id === id ? { id, title } : row)));
  }

  /** The writer's live documents, oldest first: where titles repeat, the oldest is found. */
  private async titles(ownerId: string, db: Queryable = this.db): Promise<TitleRow[]> {
    const { rows } = await db.query<TitleRow>(
      `SELECT id, title FROM documents WHERE owner_id = $1 AND deleted_at IS NULL
        ORDER BY created_at, id`,
      [ownerId],
    );
    return rows;
  }

  /** The title of the writer's document `id` (live or in the trash), or null. */
  private async title(db: Queryable, ownerId: string, id: string): Promise<string | null> {
    const { rows } = await db.query<{ title: string }>(
      'SELECT title FROM documents WHERE id = $1 AND owner_id = $2',
      [id, ownerId],
    );
    return rows[0]?.title ?? null;
  }
}

/** A PostgreSQL array literal of text, every element quoted. */
function pgArray(values: string[]): string {
  return `{${values.map((value) => `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}
