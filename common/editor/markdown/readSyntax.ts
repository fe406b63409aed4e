import type { Token } from 'markdown-it';
import { isReferenceLabel, isSyntax } from '../nodes/sourceSyntax.ts';
import type { ReferenceSyntax } from './sourceSyntaxRules.ts';

/**
 * The `syntax` attribute of the node a block token opens: the setext underline of a heading, the
 * fence of a code block, the line of a thematic break, the delimiter of an ordered list; null for
 * the export's usual form. `line` gives a source line by its index.
 */
export function blockSyntax(token: Token, line: (index: number) => string): string | null {
  const map = token.map;
  let value: string | null = null;
  switch (token.type) {
    case 'heading_open':
      if ((token.markup === '=' || token.markup === '-') && map) {
        value = line(map[1] - 1)
          .replace(/^[ \t>]*/, '')
          .trimEnd();
      }
      break;
    case 'fence': {
      // The blanks between the fence and the info string belong to how it was written.
      const blanks = token.info.trim() === '' ? '' : /^[ \t]*/.exec(token.info)![0];
      value = token.markup + blanks;
      if (value === '```') value = null;
      break;
    }
    case 'hr':
      if (map)
        value = line(map[0])
          .replace(/^[ \t>]*/, '')
          .trimEnd();
      // `---` is the usual form, and `***` is how export writes a rule that opens a document.
      if (value === '---' || (value === '***' && map?.[0] === 0)) value = null;
      break;
    case 'ordered_list_open':
      value = token.markup === ')' ? ')' : null;
      break;
  }
  const type =
    token.type === 'heading_open'
      ? 'heading'
      : token.type === 'fence'
        ? 'codeBlock'
        : token.type === 'hr'
          ? 'horizontalRule'
          : 'orderedList';
  return isSyntax(type, value) ? value : null;
}

/**
 * The blanks before a list's first marker beyond where its container's content starts (1 to 3,
 * `    - sub` under `- item`), or null for none; `parent` is the line of the list item holding
 * the list, or null at the top. Lines with tabs are not told.
 */
export function listIndent(line: string, parent: string | null): number | null {
  const lead = /^ */.exec(line)![0].length;
  if (/^[ ]*\t/.test(line)) return null;
  let column = 0;
  if (parent !== null) {
    const item = /^( *)([-+*]|\d{1,9}[.)])( *)(.*)$/.exec(parent);
    // An item that opens on the line of another (`- - x`) is not told either.
    if (!item || parent.includes('\t') || /^(?:[-+*]|\d{1,9}[.)])(?: |$)/.test(item[4]!)) {
      return null;
    }
    const blanks = item[3]!.length;
    column = item[1]!.length + item[2]!.length + (item[4] === '' || blanks > 4 ? 1 : blanks);
  }
  const extra = lead - column;
  return extra >= 1 && extra <= 3 ? extra : null;
}

/** The `syntax` attribute of a bold or italic mark or a hard break; null for the usual form. */
export function inlineSyntax(token: Token): string | null {
  switch (token.type) {
    case 'strong_open':
      return token.markup === '__' ? '__' : null;
    case 'em_open':
      return token.markup === '_' ? '_' : null;
    case 'hardbreak':
      return isSyntax('hardBreak', token.markup) && token.markup !== '\\' ? token.markup : null;
    default:
      return null;
  }
}

/** How a link or image token was written: a reference's form and label, or an autolink. */
export function linkSyntax(token: Token): { syntax: string | null; reference: string | null } {
  if (token.markup === 'autolink') return { syntax: 'autolink', reference: null };
  const reference = (token.meta as { reference?: ReferenceSyntax } | null)?.reference;
  if (!reference || !isReferenceLabel(reference.label)) return { syntax: null, reference: null };
  return { syntax: reference.form, reference: reference.label };
}
