import type mermaidModule from 'mermaid';

type Mermaid = typeof mermaidModule;

let loading: Promise<Mermaid> | null = null;

/**
 * Loads mermaid (about a megabyte, with its diagram types split further) the first time a
 * document shows a diagram. `strict`: labels are text, no HTML or script from the diagram.
 */
export function loadMermaid(): Promise<Mermaid> {
  loading ??= import('mermaid').then(
    ({ default: mermaid }) => {
      const theme = document.documentElement.dataset.theme;
      const dark =
        theme === 'dark' ||
        (theme !== 'light' && window.matchMedia('(prefers-color-scheme: dark)').matches);
      mermaid.initialize({
        startOnLoad: false,
        securityLevel: 'strict',
        theme: dark ? 'dark' : 'default',
      });
      return mermaid;
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}
