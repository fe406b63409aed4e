import { DEFAULT_LIMITS } from '../../common/api/limits.ts';
import {
  isWellFormedWikilink,
  wikilinkParts,
} from '../../common/editor/dialects/wikilink/wikilinkSyntax.ts';
import {
  isAttachment,
  targetName,
  targetPath,
} from '../../common/editor/dialects/wikilink/wikilinkTarget.ts';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The links of one document to one target, as `document_links` keeps them. */
export interface LinkRow {
  /** The target folded: lower case, no `.md` (`folder/note`). */
  path: string;
  /** Its last segment (`note`). */
  name: string;
  /** How many wikilinks and embeds of the document name it. */
  links: number;
}

/**
 * Calls `visit` with the attributes of every wikilink node in stored document JSON. Stored
 * content passed validation (at most MAX_DEPTH levels), so the recursion is bounded.
 */
export function forEachWikilink(content: unknown, visit: (attrs: Json) => void): void {
  if (!isObject(content)) return;
  if (content.type === 'wikilink' && isObject(content.attrs)) visit(content.attrs);
  if (Array.isArray(content.content)) {
    for (const child of content.content as unknown[]) forEachWikilink(child, visit);
  }
}

/**
 * The notes a document links to, one row per target. Links into the document itself
 * (`[[#Heading]]`), to files (`![[image.png]]`) and to names longer than a title name no
 * other document and are left out.
 */
export function linkRowsOf(content: unknown): LinkRow[] {
  const rows = new Map<string, LinkRow>();
  forEachWikilink(content, (attrs) => {
    const { target } = wikilinkParts(attrs);
    if (!isWellFormedWikilink(attrs) || isAttachment(target)) return;
    const name = targetName(target);
    // A name longer than any title finds nothing; a path that long can only find its name (and
    // kept whole it could pass the size of an index entry).
    if (name === '' || name.length > DEFAULT_LIMITS.titleChars) return;
    const full = targetPath(target);
    const path = full.length > DEFAULT_LIMITS.titleChars ? name : full;
    const row = rows.get(path);
    if (row) row.links += 1;
    else rows.set(path, { path, name, links: 1 });
  });
  return [...rows.values()];
}
