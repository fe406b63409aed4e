/** Default ceiling for one imported Markdown file (docs/PRODUCT.md "Limits"). */
export const MARKDOWN_IMPORT_LIMIT = 10 * 1024 * 1024;

/** Why a file could not be imported; `message` is written for the writer. */
export class MarkdownImportError extends Error {
  /** `too_large`: over the limit; `not_text`: not UTF-8 text; `too_deep`: nests past MAX_DEPTH. */
  readonly code: 'too_large' | 'not_text' | 'too_deep';

  constructor(code: 'too_large' | 'not_text' | 'too_deep', message: string) {
    super(message);
    this.name = 'MarkdownImportError';
    this.code = code;
  }
}

function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / (1024 * 1024)).toFixed(1)} MB`
    : `${Math.ceil(bytes / 1024)} KB`;
}

/** Refuses a file of `size` bytes over `limit` before anything reads it. */
export function checkMarkdownFileSize(size: number, limit = MARKDOWN_IMPORT_LIMIT): void {
  if (size > limit) {
    throw new MarkdownImportError(
      'too_large',
      `This file is ${formatSize(size)}; Markdown files up to ${formatSize(limit)} can be imported.`,
    );
  }
}

/**
 * Reads the bytes of a Markdown file as UTF-8 text, refusing a file over `limit` bytes or one that
 * is not text (invalid UTF-8 or containing NUL bytes, as binaries do). A BOM is dropped.
 */
export function decodeMarkdownFile(bytes: Uint8Array, limit = MARKDOWN_IMPORT_LIMIT): string {
  checkMarkdownFileSize(bytes.byteLength, limit);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new MarkdownImportError(
      'not_text',
      'This file is not UTF-8 text, so it cannot be read as Markdown.',
    );
  }
  if (text.includes('\u0000')) {
    throw new MarkdownImportError(
      'not_text',
      'This file looks like a binary file, not Markdown text.',
    );
  }
  return text;
}
