import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';
import type { AttrSpan } from './tokenize.ts';

const ignore = (): void => undefined;

/**
 * Decodes character references the way a browser does inside a double-quoted attribute value.
 * htmlparser2's tokenizer carries the full named-reference table and the attribute-specific rules
 * (`&amp` without `;` before `=` or a letter stays as written), so it reads a synthetic tag.
 */
function decodeQuoteFree(text: string): string {
  const source = `<a v="${text}">`;
  let out = '';
  const callbacks: TokenizerCallbacks = {
    onattribdata: (start, end) => {
      out += source.slice(start, end);
    },
    onattribentity: (codePoint) => {
      out += String.fromCodePoint(codePoint);
    },
    onattribend: ignore,
    onattribname: ignore,
    oncdata: ignore,
    onclosetag: ignore,
    oncomment: ignore,
    ondeclaration: ignore,
    onend: ignore,
    onopentagend: ignore,
    onopentagname: ignore,
    onprocessinginstruction: ignore,
    onselfclosingtag: ignore,
    ontext: ignore,
    ontextentity: ignore,
  };
  const tokenizer = new Tokenizer({ decodeEntities: true }, callbacks);
  tokenizer.write(source);
  tokenizer.end();
  return out;
}

/**
 * The value a browser stores for an attribute written as `raw` (between its quotes): newlines
 * normalised, character references decoded, NUL read as U+FFFD.
 */
export function decodeAttributeValue(raw: string): string {
  let value = raw.includes('\r') ? raw.replace(/\r\n?/g, '\n') : raw;
  if (value.includes('&')) {
    // No reference spans a quote, and a quote stops a reference just as the closing one would.
    value = value.split('"').map(decodeQuoteFree).join('"');
  }
  return value.includes('\0') ? value.replaceAll('\0', '\uFFFD') : value;
}

/** The value a browser stores for attribute `attr` of `src`; '' when it is written without one. */
export function attrValue(src: string, attr: AttrSpan): string {
  return attr.valueStart < 0 ? '' : decodeAttributeValue(src.slice(attr.valueStart, attr.valueEnd));
}
