import { CommentBlock, CommentInline } from './comment/CommentNodes.ts';
import { FootnoteDefinition, FootnoteRef, InlineFootnote } from './footnote/FootnoteNodes.ts';
import { MathBlock, MathInline } from './math/MathNodes.ts';
import { Tag } from './tag/TagNode.ts';
import { Wikilink } from './wikilink/WikilinkNode.ts';

/**
 * The nodes of the Markdown dialects that live inside a line or a plain block (math, footnotes,
 * comments, tags, wikilinks; the highlight is a mark of the schema already), for the schema. Their
 * markdown-it rules stay with the codec in inlineDialects.ts.
 */
export const inlineDialectExtensions = [
  MathInline,
  MathBlock,
  FootnoteRef,
  FootnoteDefinition,
  InlineFootnote,
  CommentInline,
  CommentBlock,
  Tag,
  Wikilink,
];
