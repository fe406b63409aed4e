/**
 * True when an attribute value holds something a reader would take for markup (`<script`,
 * `</style`, `<!--`, `<?`). Such values are dropped on every path into a document: the export
 * copies raw HTML verbatim, and a tool that reads it with a simpler parser than a browser's could
 * see a tag there.
 */
export function carriesMarkup(value: string): boolean {
  return /<[a-z!/?]/i.test(value);
}
