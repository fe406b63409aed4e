import { MAX_DEPTH } from '../api/limits.ts';

/** Nodes that sit inside a line rather than hold blocks: as leaves they add no level. */
const INLINE_TYPES = new Set(['text', 'hardBreak', 'softBreak', 'inlineImage', 'htmlInline']);

/**
 * Whether `node`, a child of a node of `parentType`, adds a level of nesting (see MAX_DEPTH).
 * Inline leaves do not, nor do the editor's chunks in the document, so that a depth reads the
 * same in the editor and in a saved document. Anything else holding children counts, so that
 * no shape of input can nest without the count growing.
 */
export function countsAsLevel(node: object, parentType: unknown): boolean {
  const { type, content } = node as { type?: unknown; content?: unknown };
  if (typeof type !== 'string') return true;
  if (type === 'chunk') return parentType !== 'doc';
  return !(INLINE_TYPES.has(type) && content === undefined);
}

/** A document, or a part of one, that nests deeper than {@link MAX_DEPTH}; refused whole. */
export class DocumentTooDeepError extends RangeError {
  override name = 'DocumentTooDeepError';
  /** How many levels deep it nests. */
  readonly depth: number;

  constructor(depth: number, where: string) {
    super(
      `The document nests ${depth.toLocaleString('en-US')} levels deep ${where}; ` +
        `Inkwell accepts at most ${MAX_DEPTH} levels of blocks inside one another.`,
    );
    this.depth = depth;
  }
}

/** The deepest level in `json` and which top-level block holds it (1-based; 0 for none). */
export function measureDepth(json: unknown): { depth: number; topBlock: number } {
  // Walked with a stack of its own: the input may nest deeper than the call stack allows.
  const stack: Array<{ node: object; depth: number; topBlock: number }> = [];
  if (typeof json === 'object' && json !== null) stack.push({ node: json, depth: 0, topBlock: 0 });
  let deepest = { depth: 0, topBlock: 0 };
  while (stack.length > 0) {
    const { node, depth, topBlock } = stack.pop()!;
    const { type, content } = node as { type?: unknown; content?: unknown };
    if (!Array.isArray(content)) continue;
    for (let index = 0; index < content.length; index++) {
      const child: unknown = content[index];
      if (typeof child !== 'object' || child === null) continue;
      const childDepth = countsAsLevel(child, type) ? depth + 1 : depth;
      const childTop = topBlock === 0 ? index + 1 : topBlock;
      if (childDepth > deepest.depth) deepest = { depth: childDepth, topBlock: childTop };
      stack.push({ node: child, depth: childDepth, topBlock: childTop });
    }
  }
  return deepest;
}

/** The error for document JSON found to nest too deeply, saying how deep and where. */
export function documentTooDeep(json: unknown): DocumentTooDeepError {
  const { depth, topBlock } = measureDepth(json);
  return new DocumentTooDeepError(
    depth,
    `in its block ${topBlock.toLocaleString('en-US')} from the top`,
  );
}
