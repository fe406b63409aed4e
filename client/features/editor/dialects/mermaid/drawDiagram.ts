import { loadMermaid } from './loadMermaid.ts';

let nextId = 0;

/**
 * Draws `code` into `figure` with mermaid. Loaded with mermaid, on first use, so that neither
 * this nor mermaid's list of chunks is part of the editor's first download.
 */
export async function drawDiagram(figure: HTMLElement, code: string): Promise<void> {
  const mermaid = await loadMermaid();
  const { svg } = await mermaid.render(`ink-mermaid-${++nextId}`, code);
  // mermaid's strict mode sanitises what it draws (DOMPurify); the SVG is its own output.
  figure.innerHTML = svg;
}
