import { parseMarkdown } from '../common/editor/markdown/index.ts';

/** How close to the end the heading must be to stand for "the end of the document is shown". */
const NEAR_END_BLOCKS = 200;

/**
 * The text of a top-level heading near the end of the document that no other heading has, so
 * that seeing it in the editor means the end of the document was rendered.
 */
export function endHeading(markdown: string): string {
  const doc = parseMarkdown(markdown);
  const headings: { text: string; index: number }[] = [];
  const counts = new Map<string, number>();
  doc.forEach((node, _offset, index) => {
    if (node.type.name !== 'heading') return;
    const text = node.textContent.trim();
    if (text === '') return;
    headings.push({ text, index });
    counts.set(text, (counts.get(text) ?? 0) + 1);
  });
  const last = headings[headings.length - 1];
  if (!last) throw new Error('the document has no heading');
  const unique = headings.findLast(
    (h) => counts.get(h.text) === 1 && h.index >= doc.childCount - NEAR_END_BLOCKS,
  );
  return (unique ?? last).text;
}
