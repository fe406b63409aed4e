import katex from 'katex';

/** Longer TeX is shown as its source: typesetting it would hold the server for a whole page. */
const MAX_TEX_CHARS = 5000;

/**
 * TeX typeset by KaTeX as MathML, which browsers lay out themselves: no style sheet, no fonts and
 * no style attributes for the page to allow. Null when KaTeX cannot read it (the page then shows
 * the source, as the editor does). `trust: false` keeps out links and HTML-setting commands;
 * sizes are capped so that a `\rule` cannot paint over the page (the page also clips math to its
 * own box, for negative spaces).
 */
export function mathMarkup(tex: string, display: boolean): string | null {
  if (tex.length > MAX_TEX_CHARS) return null;
  try {
    return katex.renderToString(tex, {
      output: 'mathml',
      displayMode: display,
      throwOnError: true,
      trust: false,
      strict: 'ignore',
      maxSize: 10,
      maxExpand: 1000,
    });
  } catch {
    return null;
  }
}
