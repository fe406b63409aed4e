import type { MarkdownIt, StateBlock, StateInline } from 'markdown-it';

const LABEL = /\[\^([^\]\s]+)\]/y;
const DEFINITION = /\[\^([^\]\s]+)\]:/y;

/**
 * Footnotes: `[^id]` references and `[^id]: text` definitions, which may go on over lines indented
 * by four. Owned rather than taken from markdown-it-footnote, which moves every definition to the
 * end of the document: here a definition stays where it was written, so export writes it back
 * there.
 */
export function footnotePlugin(md: MarkdownIt): void {
  md.inline.ruler.before('link', 'footnote_ref', footnoteRef);
  // Before `reference`, which would read `[^id]: text` as a link reference definition.
  md.block.ruler.before('reference', 'footnote_def', footnoteDefinition, {
    alt: ['paragraph', 'reference'],
  });
}

/** The label of the footnote reference at `pos`, or null. */
export function footnoteLabelAt(src: string, pos: number): string | null {
  LABEL.lastIndex = pos;
  const match = LABEL.exec(src);
  // `[^x](url)` is a link whose text starts with ^.
  return match && src[LABEL.lastIndex] !== '(' ? match[1]! : null;
}

function footnoteRef(state: StateInline, silent: boolean): boolean {
  const { src, pos } = state;
  if (src.charCodeAt(pos) !== 0x5b || src.charCodeAt(pos + 1) !== 0x5e) return false;
  const label = footnoteLabelAt(src, pos);
  if (label === null || pos + label.length + 3 > state.posMax) return false;
  if (!silent) state.push('footnote_ref', '', 0).meta = { label };
  state.pos = pos + label.length + 3;
  return true;
}

function footnoteDefinition(
  state: StateBlock,
  startLine: number,
  endLine: number,
  silent: boolean,
): boolean {
  if (state.sCount[startLine]! - state.blkIndent >= 4) return false;
  const start = state.bMarks[startLine]! + state.tShift[startLine]!;
  DEFINITION.lastIndex = start;
  const match = DEFINITION.exec(state.src);
  if (!match || match.index !== start) return false;
  if (silent) return true;

  // Definitions written one per line, without blank lines between, are written back so.
  const tight =
    startLine > 0 &&
    !state.isEmpty(startLine - 1) &&
    state.tokens[state.tokens.length - 1]?.type === 'footnote_def_close';
  const open = state.push('footnote_def_open', '', 1);
  open.meta = { label: match[1]!, tight };
  open.map = [startLine, startLine];

  // The text after the colon is read as if it started a block indented by four, as a list
  // item's content is read after its marker.
  const saved = {
    bMark: state.bMarks[startLine]!,
    tShift: state.tShift[startLine]!,
    sCount: state.sCount[startLine]!,
    blkIndent: state.blkIndent,
    parentType: state.parentType,
  };
  const max = state.eMarks[startLine]!;
  let pos = DEFINITION.lastIndex;
  let column = state.sCount[startLine]! + (pos - start);
  const contentStart = pos;
  while (pos < max) {
    const c = state.src.charCodeAt(pos);
    if (c === 0x20) column++;
    else if (c === 0x09) column += 4 - (column % 4);
    else break;
    pos++;
  }
  state.tShift[startLine] = pos - contentStart;
  state.sCount[startLine] = column - saved.sCount - (contentStart - start);
  state.bMarks[startLine] = contentStart;
  state.blkIndent += 4;
  state.parentType = 'footnote' as StateBlock['parentType'];
  if (state.sCount[startLine]! < state.blkIndent) state.sCount[startLine]! += state.blkIndent;

  state.md.block.tokenize(state, startLine, endLine);

  state.parentType = saved.parentType;
  state.blkIndent = saved.blkIndent;
  state.tShift[startLine] = saved.tShift;
  state.sCount[startLine] = saved.sCount;
  state.bMarks[startLine] = saved.bMark;
  open.map[1] = state.line;
  state.push('footnote_def_close', '', -1);
  return true;
}
