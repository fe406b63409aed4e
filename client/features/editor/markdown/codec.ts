import type * as Codec from '../../../../common/editor/markdown/index.ts';

type MarkdownCodec = typeof Codec;

let loading: Promise<MarkdownCodec> | undefined;
let loaded: MarkdownCodec | undefined;

/**
 * The Markdown codec, loaded on first use: it is large (markdown-it and the serializer) and
 * only import, export and paste need it, so it stays out of the editor's first download.
 */
export function loadMarkdownCodec(): Promise<MarkdownCodec> {
  loading ??= import('../../../../common/editor/markdown/index.ts').then(
    (codec) => (loaded = codec),
    (error: unknown) => {
      // A failed chunk load (offline, new deploy) must not poison every later attempt.
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/**
 * Whether `error` is the codec's MarkdownImportError, whose message is written for the writer.
 * Only the codec throws one, so until it has loaded nothing is one: the check keeps the error's
 * module (and the decoding beside it) out of the editor's first download.
 */
export function isMarkdownImportError(error: unknown): error is Codec.MarkdownImportError {
  return loaded !== undefined && error instanceof loaded.MarkdownImportError;
}

/** Starts loading the codec ahead of a likely use (the menu opening); errors surface on use. */
export function prefetchMarkdownCodec(): void {
  loadMarkdownCodec().catch(() => undefined);
}

let warmUpStopped = false;

/**
 * Warms up the parser as the writer reaches for a file to import (the file dialog opening, a file
 * dragged onto the page), until the import begins ({@link stopMarkdownParserWarmUp}):
 * parserWarmUp.ts, loaded with the codec.
 */
export function warmUpMarkdownParser(): void {
  if (warmUpStopped) return;
  import('./parserWarmUp.ts')
    .then(({ warmUpParser }) => warmUpParser(() => warmUpStopped))
    .catch(() => undefined);
}

/** Ends the warm-up, or keeps it from starting: an import begins, and has the thread. */
export function stopMarkdownParserWarmUp(): void {
  warmUpStopped = true;
}
