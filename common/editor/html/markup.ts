/**
 * True when an attribute value holds something a reader would take for markup (`<script`,
 * `</style`, `<!--`, `<?`). Such values are dropped on every path into a document: the export
 * copies raw HTML verbatim, and a tool that reads it with a simpler parser than a browser's could
 * see a tag there.
 */
export function carriesMarkup(value: string): boolean {
  return /<[a-z!/?]/i.test(value);
}

/**
 * `text` with a space after each `<` that could open markup (`The <!--draft` becomes
 * `The < !--draft`): every word stays, and carriesMarkup no longer holds.
 */
export function defuseMarkup(text: string): string {
  return text.replace(/<(?=[a-z!/?])/gi, '< ');
}
