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
 * A NUL, or half of a UTF-16 surrogate pair without its other half. Neither is text: a NUL marks
 * a binary file, and a lone surrogate is a character cut in two (a damaged paste or answer) that
 * no UTF-8 file can hold and that the editor would store as U+FFFD, changing the text unseen.
 */
const UNREADABLE = /[\0\uD800-\uDFFF]/u;

/**
 * Whether `text` holds neither, by the engine's own scans: the regular expression reads about
 * 8 ms per megabyte, these well under one, and only a refusal needs to know where.
 */
function readable(text: string): boolean {
  if (text.includes('\0')) return false;
  // isWellFormed: Chromium 111, Firefox 119, Safari 16.4; older engines read the expression.
  return typeof text.isWellFormed === 'function' ? text.isWellFormed() : !UNREADABLE.test(text);
}

/** "Line 3, column 7" for offset `at` in `text` (the column counts UTF-16 code units). */
function where(text: string, at: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < at; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return `Line ${line.toLocaleString('en-US')}, column ${(at - lineStart + 1).toLocaleString('en-US')}`;
}

/**
 * Refuses Markdown text holding a NUL or a lone surrogate, saying what and where: import, paste,
 * AI answers and the CLI never read such text silently changed (docs/PRODUCT.md, "Markdown").
 */
export function checkMarkdownText(text: string): void {
  if (readable(text)) return;
  const match = UNREADABLE.exec(text);
  if (!match) return;
  if (match[0] === '\0') {
    throw new MarkdownImportError(
      'not_text',
      `${where(text, match.index)} holds a NUL character (U+0000), which text never does: ` +
        'this looks like a binary file, not Markdown.',
    );
  }
  const code = match[0].charCodeAt(0).toString(16).toUpperCase();
  throw new MarkdownImportError(
    'not_text',
    `${where(text, match.index)} holds half of a character (a lone surrogate, U+${code}): ` +
      'the text was cut or damaged, so it cannot be read as Markdown.',
  );
}

/** The 1-based line of the first byte sequence that is not UTF-8 in `bytes`. */
function firstInvalidLine(bytes: Uint8Array): number {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let line = 1;
  let start = 0;
  for (;;) {
    const end = bytes.indexOf(0x0a, start);
    const stop = end < 0 ? bytes.length : end;
    try {
      decoder.decode(bytes.subarray(start, stop));
    } catch {
      return line;
    }
    if (end < 0) return line;
    line++;
    start = end + 1;
  }
}

/**
 * Reads the bytes of a Markdown file as UTF-8 text, refusing a file over `limit` bytes or one that
 * is not text (invalid UTF-8 or containing NUL bytes, as binaries do), with the line where it
 * stops being text. A BOM is dropped.
 */
export function decodeMarkdownFile(bytes: Uint8Array, limit = MARKDOWN_IMPORT_LIMIT): string {
  checkMarkdownFileSize(bytes.byteLength, limit);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    const line = firstInvalidLine(bytes).toLocaleString('en-US');
    throw new MarkdownImportError(
      'not_text',
      `This file is not UTF-8 text (line ${line} holds bytes that are not), so it cannot be read as Markdown.`,
    );
  }
  checkMarkdownText(text);
  return text;
}
