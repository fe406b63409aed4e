/** The default limits of DESIGN §7; the server's configuration may change them. */
export const DEFAULT_LIMITS = {
  /** Largest document, as bytes of its JSON. */
  documentBytes: 5 * 1024 * 1024,
  /** Longest title, in characters. */
  titleChars: 200,
  /** Largest Markdown file to import, in bytes. */
  importBytes: 10 * 1024 * 1024,
} as const;
