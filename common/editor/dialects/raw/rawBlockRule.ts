import type { StateBlock } from 'markdown-it';

/** A markdown-it block rule, as `md.block.ruler` takes it. */
type BlockRule = (
  state: StateBlock,
  startLine: number,
  endLine: number,
  silent: boolean,
) => boolean;

/**
 * A block that opens with `marker` at the start of a line and ends with the first later line that
 * ends in `marker` (`$$` display math, `%%` comments). What lies between the two markers becomes
 * the token's content unchanged (no escapes, no entities), so that it can be written back byte for
 * byte. A block that opens and closes on one line is left to the inline rule of the same syntax.
 * It does not interrupt a paragraph: there the inline rule reads the same text.
 */
export function rawBlockRule(marker: string, type: string): BlockRule {
  return (state, startLine, endLine, silent) => {
    if (state.sCount[startLine]! - state.blkIndent >= 4) return false;
    const start = state.bMarks[startLine]! + state.tShift[startLine]!;
    const src = state.src;
    if (!src.startsWith(marker, start)) return false;
    if (src.slice(start + marker.length, state.eMarks[startLine]).includes(marker)) return false;
    for (let line = startLine + 1; line < endLine; line++) {
      const lineStart = state.bMarks[line]! + state.tShift[line]!;
      const lineEnd = state.eMarks[line]!;
      // A line outdented out of the list item ends the item, and with it the block.
      if (lineStart < lineEnd && state.sCount[line]! < state.blkIndent) return false;
      const text = src.slice(lineStart, lineEnd).trimEnd();
      const at = text.indexOf(marker);
      if (at === -1) continue;
      if (at !== text.length - marker.length) return false;
      if (silent) return true;
      const lines = state.getLines(startLine, line + 1, state.blkIndent, false);
      const open = lines.indexOf(marker);
      const close = lines.lastIndexOf(marker);
      const token = state.push(type, '', 0);
      token.content = lines.slice(open + marker.length, close);
      token.markup = marker;
      token.block = true;
      token.map = [startLine, line + 1];
      state.line = line + 1;
      return true;
    }
    return false;
  };
}
