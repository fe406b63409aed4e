/** The default limits of docs/PRODUCT.md "Limits"; the server's configuration may change them. */
export const DEFAULT_LIMITS = {
  /** Largest document, as bytes of its JSON. */
  documentBytes: 5 * 1024 * 1024,
  /** Longest title, in characters. */
  titleChars: 200,
  /** Largest Markdown file to import, in bytes. */
  importBytes: 10 * 1024 * 1024,
} as const;

/**
 * How deeply blocks may nest in a document: a paragraph at the top is 1 level deep, in a quote 2,
 * in a list item 3 (the list, the item, the paragraph); text and other inline content do not
 * count, nor do the editor's chunks. No real document comes near it, and every recursive walk of a
 * document (the schema check, the editor, the Markdown codec) is safe far beyond it. Fixed, not
 * configurable: the Markdown codec refuses the same depth. docs/limits.md has the rule.
 */
export const MAX_DEPTH = 100;
