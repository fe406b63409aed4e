/** What the slash filter reads of an item. */
export interface Searchable {
  /** The name shown in the menu. */
  title: string;
  /** Other words that find the item ("h2", "todo", "hr", "video"). */
  keywords: readonly string[];
  /**
   * Listed only when two or more typed characters start its title or a keyword, never in the
   * full list (the per-language code blocks: `/py` offers "Python code block").
   */
  onlyOnPrefix?: boolean;
}

const compact = (text: string) => text.toLowerCase().replace(/\s+/g, '');

/** Lower is better; null when the item does not match. */
function score(item: Searchable, query: string): number | null {
  const title = item.title.toLowerCase();
  const titleCompact = compact(item.title);
  const keywords = item.keywords.map(compact);
  const startsTitle = title.startsWith(query) || titleCompact.startsWith(query);
  const startsKeyword = keywords.some((k) => k.startsWith(query));
  if (item.onlyOnPrefix) {
    if (query.length < 2 || !(startsTitle || startsKeyword)) return null;
  }
  if (titleCompact === query) return 0;
  if (keywords.includes(query)) return 1;
  if (startsTitle) return 2;
  if (title.split(/\s+/).some((word) => word.startsWith(query))) return 3;
  if (startsKeyword) return 4;
  if (titleCompact.includes(query)) return 5;
  if (keywords.some((k) => k.includes(query))) return 6;
  return null;
}

/**
 * The items matching what was typed after `/`, best first: an exact title or keyword, then a
 * prefix of the title, of one of its words or of a keyword, then any substring. Ties keep the
 * menu's order. An empty query lists every item except the `onlyOnPrefix` ones.
 */
export function filterSlashItems<T extends Searchable>(items: readonly T[], query: string): T[] {
  const q = compact(query);
  if (q === '') return items.filter((item) => !item.onlyOnPrefix);
  return items
    .map((item, index) => ({ item, index, score: score(item, q) }))
    .filter((entry): entry is { item: T; index: number; score: number } => entry.score !== null)
    .sort((a, b) => a.score - b.score || a.index - b.index)
    .map((entry) => entry.item);
}
