import type { JSONContent } from '@tiptap/core';
import type { DocumentContent } from '../common/api/documents.ts';
import { parseMarkdown } from '../common/editor/markdown/index.ts';

// The documents `collabLoad` seeds its writers with. (The file kept its name from the retired
// `autosave` benchmark, which seeded writers and their documents here.)

/** Words per paragraph and paragraphs per section of `proseOfSize`: a chapter, not a README. */
const PARAGRAPH_WORDS = 120;
const SECTION_PARAGRAPHS = 8;

/** A paragraph of `words`, with one phrase in bold, italic or a link now and then, as writers mark. */
function paragraph(words: string[], index: number): JSONContent {
  const text = (part: string[], marks?: JSONContent['marks']): JSONContent =>
    marks ? { type: 'text', text: part.join(' '), marks } : { type: 'text', text: part.join(' ') };
  const marks: JSONContent['marks'][] = [
    [{ type: 'bold' }],
    [{ type: 'italic' }],
    [{ type: 'link', attrs: { href: `https://example.com/notes/${index}` } }],
  ];
  const mark = index % 2 === 0 ? marks[(index / 2) % marks.length] : undefined;
  const content = mark
    ? [
        text(words.slice(0, 40)),
        { type: 'text', text: ' ' },
        text(words.slice(40, 44), mark),
        { type: 'text', text: ' ' },
        text(words.slice(44)),
      ]
    : [text(words)];
  return { type: 'paragraph', content };
}

/**
 * Prose of nearly `bytes` of JSON, from the words of a fixture: paragraphs of 120 words, a heading
 * before every eighth, a phrase in bold, italic or a link in every other one. The fixtures
 * themselves are READMEs, whose lists and links make JSON six times the size of their text; a
 * writer's document is mostly text, which is what the search column is computed from.
 */
export function proseOfSize(markdown: string, bytes: number): DocumentContent {
  const doc = parseMarkdown(markdown);
  const words = doc.textBetween(0, doc.content.size, ' ', ' ').match(/[\p{L}\p{N}][^\s]*/gu) ?? [];
  const blocks: JSONContent[] = [];
  // The envelope `{"type":"doc","content":[]}`, then each block and its comma.
  let size = 27;
  let next = 0;
  const take = (count: number) => {
    const taken = words.slice(next, next + count);
    next += count;
    return taken;
  };
  for (let index = 0; next + PARAGRAPH_WORDS <= words.length; index++) {
    const block =
      index % (SECTION_PARAGRAPHS + 1) === 0
        ? {
            type: 'heading',
            attrs: { level: 2 },
            content: [{ type: 'text', text: take(5).join(' ') }],
          }
        : paragraph(take(PARAGRAPH_WORDS), index);
    const blockBytes = Buffer.byteLength(JSON.stringify(block)) + 1;
    if (size + blockBytes > bytes) break;
    blocks.push(block);
    size += blockBytes;
  }
  return { type: 'doc', content: blocks };
}
