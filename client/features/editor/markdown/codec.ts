import type * as Codec from '../../../../common/editor/markdown/index.ts';

type MarkdownCodec = typeof Codec;

let loading: Promise<MarkdownCodec> | undefined;

/**
 * The Markdown codec, loaded on first use: it is large (markdown-it and the serializer) and
 * only import, export and paste need it, so it stays out of the editor's first download.
 */
export function loadMarkdownCodec(): Promise<MarkdownCodec> {
  loading ??= import('../../../../common/editor/markdown/index.ts').catch((error: unknown) => {
    // A failed chunk load (offline, new deploy) must not poison every later attempt.
    loading = undefined;
    throw error;
  });
  return loading;
}

/** Starts loading the codec ahead of a likely use (the menu opening); errors surface on use. */
export function prefetchMarkdownCodec(): void {
  loadMarkdownCodec().catch(() => undefined);
}
