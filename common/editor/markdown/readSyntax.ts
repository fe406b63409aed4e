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
      // The underline with the blanks after it, which only the file's bytes need.
      if ((token.markup === '=' || token.markup === '-') && map) {
        value = line(map[1] - 1).replace(/^[ \t>]*/, '');
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
      if (map) value = line(map[0]).replace(/^[ \t>]*/, '');
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

/** The `syntax` attribute of a bold or italic mark; null for the usual form. */
export function inlineSyntax(token: Token): string | null {
  switch (token.type) {
    case 'strong_open':
      return token.markup === '__' ? '__' : null;
    case 'em_open':
      return token.markup === '_' ? '_' : null;
    default:
      return null;
  }
}

/**
 * The `syntax` attribute of a hard or soft break, from the blanks around its newline that
 * sourceSyntaxRules.ts noted in `markup`; null for the usual form (a backslash, or no blanks).
 */
export function breakSyntax(token: Token): string | null {
  const markup = token.markup;
  if (token.type === 'softbreak') {
    return markup !== '\n' && isSyntax('softBreak', markup) ? markup : null;
  }
  return markup !== '\\' && isSyntax('hardBreak', markup) ? markup : null;
}

/** How a link or image token was written: a reference's form and label, or an autolink. */
export function linkSyntax(token: Token): { syntax: string | null; reference: string | null } {
  if (token.markup === 'autolink') return { syntax: 'autolink', reference: null };
  const reference = (token.meta as { reference?: ReferenceSyntax } | null)?.reference;
  if (!reference || !isReferenceLabel(reference.label)) return { syntax: null, reference: null };
  return { syntax: reference.form, reference: reference.label };
}
