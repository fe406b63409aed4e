// The attribute mode of the decoder browsers' rules describe: the full named-reference table, and
// `&amp` without `;` before `=` or a letter stays as written.
import { decodeHTMLAttribute } from 'entities/decode';
import type { AttrSpan } from './tokenize.ts';

/**
 * The value a browser stores for an attribute written as `raw` (between its quotes): newlines
 * normalised, character references decoded, NUL read as U+FFFD.
 */
export function decodeAttributeValue(raw: string): string {
  let value = raw.includes('\r') ? raw.replace(/\r\n?/g, '\n') : raw;
  if (value.includes('&')) value = decodeHTMLAttribute(value);
  return value.includes('\0') ? value.replaceAll('\0', '\uFFFD') : value;
}

/** The value a browser stores for attribute `attr` of `src`; '' when it is written without one. */
export function attrValue(src: string, attr: AttrSpan): string {
  return attr.valueStart < 0 ? '' : decodeAttributeValue(src.slice(attr.valueStart, attr.valueEnd));
}
