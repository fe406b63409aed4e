import type katexModule from 'katex';

type Katex = typeof katexModule;

let loading: Promise<Katex> | null = null;

/**
 * Loads KaTeX and its style sheet (whose fonts the browser fetches as they are used) the first
 * time a document shows math, so the editor's first download does not carry them.
 */
export function loadKatex(): Promise<Katex> {
  loading ??= Promise.all([import('katex'), import('katex/dist/katex.min.css')]).then(
    ([module]) => module.default,
    (error: unknown) => {
      // A failed download (offline) may be retried by the next math shown.
      loading = null;
      throw error;
    },
  );
  return loading;
}
