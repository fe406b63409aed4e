import type { Node as PMNode } from '@tiptap/pm/model';
import { FRONT_MATTER, fenceLine } from './FrontMatter.ts';

/**
 * The front matter of `doc` as written at the top of its Markdown, with the newline after the
 * closing fence, or '' when the document has none. Untouched, it is the source byte for byte.
 */
export function serializeFrontMatter(doc: PMNode): string {
  const first = doc.firstChild;
  if (first?.type.name !== FRONT_MATTER) return '';
  const yaml = String(first.attrs.yaml ?? '');
  const body = yaml === '' || yaml.endsWith('\n') ? yaml : `${yaml}\n`;
  return `${fenceLine(first.attrs.open)}\n${body}${fenceLine(first.attrs.close)}\n`;
}

/**
 * The whole Markdown of `doc` from its written blocks `body` (without a final newline): its front
 * matter, then the blank lines its file had before the blocks (`start`, when not the usual one
 * after front matter and none without), the blocks, then `end` (the newline that ends the file,
 * as its last block remembers it). A document without front matter that opens with a horizontal
 * rule writes it as `***`, since a `---` first line would open front matter when read back.
 */
export function withFrontMatter(
  doc: PMNode,
  body: string,
  end = '\n',
  start: string | null = null,
): string {
  const front = serializeFrontMatter(doc);
  if (body === '') return front;
  if (front === '') return `${start ?? ''}${body.replace(/^---(?=\n|$)/, '***')}${end}`;
  const spaced = doc.firstChild?.attrs.spaced !== false;
  return `${front}${start ?? (spaced ? '\n' : '')}${body}${end}`;
}
