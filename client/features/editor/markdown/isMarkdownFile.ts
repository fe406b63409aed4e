const MARKDOWN_NAME = /\.(?:md|markdown|mdown|mkd|mkdn)$/i;

/** True for a file that a drop onto the editor imports as Markdown (by name or by type). */
export function isMarkdownFile(file: Pick<File, 'name' | 'type'>): boolean {
  return MARKDOWN_NAME.test(file.name) || file.type === 'text/markdown';
}

/** The file name without its extension, as a document title. */
export function titleFromFileName(name: string): string {
  return name.replace(/\.[^.]+$/, '').trim();
}
