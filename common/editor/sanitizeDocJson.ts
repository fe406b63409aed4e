import type { JSONContent } from '@tiptap/core';
import { cleanDocJson, type CleanOptions } from './cleanDocJson.ts';
import { sanitizeHtml } from './html/sanitize.ts';

/**
 * Document JSON from outside with the link rule, the attribute rules and the raw-HTML sanitiser
 * applied: see {@link cleanDocJson}. The server and the CLI call this; the browser calls
 * `cleanDocJson` and loads the sanitiser only for documents that hold raw HTML.
 */
export function sanitizeDocJson(json: unknown, options?: CleanOptions): JSONContent | null {
  return cleanDocJson(json, sanitizeHtml, options);
}
