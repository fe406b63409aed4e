import MarkdownItConstructor, { type MarkdownIt } from 'markdown-it';
import { blank, maskCodeBlocks } from './maskCode.ts';

/** A word: a run of letters, digits and combining marks, in any script. */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

/**
 * Raw HTML whose text Inkwell drops on purpose (docs/limits.md, "No silent loss on import"):
 * script, style and template elements (to their end tag, or to the end of the text when there is
 * none) and event handler attributes.
 */
const EXEMPT = [
  /<(script|style|template)\b[\s\S]*?(?:<\/\1\s*>|$(?![\s\S]))/gi,
  /(?<=<[a-z][^<>]*\s)on[a-z]+\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+)/gi,
];

/**
 * Markup rather than text: a round trip may rewrite it into other syntax without losing anything
 * the writer wrote. HTML tag and attribute names (`<b>` becomes `**`), the names of character
 * references (`&amp;` becomes `&`), ordered list numbers (lists are renumbered) and reference
 * labels (`[text][label]` may become an inline link).
 */
const MARKUP = [
  /<\/?[a-z][a-z0-9:-]*|<!\[CDATA\[|(?<=<[a-z][^<>]*[\s/])[a-z_:][\w:.-]*(?=\s*=)|(?<=<[a-z][^<>]*[\s/])[a-z_:][\w:.-]*(?=[\s/>])/gi,
  /&(?:#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);/gi,
  /^(?:[ \t]*>)*[ \t]*\d{1,9}(?=[.)](?:[ \t]|$))/gm,
  /(?<=\])\[[^[\]\n]+\](?!\()|^ {0,3}\[[^\]\n]+\](?=:)/gm,
];

let shared: MarkdownIt | undefined;

/** The words of `text`, each with how many times it occurs. */
export function countWords(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const [word] of text.normalize('NFC').matchAll(WORD))
    counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}

/** Quoted attribute values of raw HTML tags: words in them are not text a reader sees. */
const ATTRIBUTE_VALUES = /(?<=<[a-z][^<>]*=\s*)(?:"[^"]*"|'[^']*'|[^\s"'=<>]+)/gi;

/**
 * Attribute names as a browser reads them: anything up to a space, `/`, `>` or `=`, so that
 * hostile ones such as `onload&#x3d;alert(1)` are names too.
 */
const ATTRIBUTE_NAMES = /(?<=<[a-z][^<>]*[\s/])[^\s/>=]+/gi;

/**
 * Words parted only by emphasis or strikethrough delimiters (`foxtrot_*_*why*`): one word to a
 * reader (CommonMark shows foxtrot<em>why</em>), which a round trip may write whole when nested
 * emphasis of one kind reads back as a single level.
 */
const DELIMITED_WORDS = /[\p{L}\p{N}\p{M}]+(?:[*_~]+[\p{L}\p{N}\p{M}]+)+/gu;

/** The words that `text` parts with delimiters only, joined, each with the words it is made of. */
function delimitedWords(text: string): Map<string, Set<string>> {
  const joined = new Map<string, Set<string>>();
  for (const [run] of text.normalize('NFC').matchAll(DELIMITED_WORDS)) {
    const parts = run.split(/[*_~]+/);
    joined.set(parts.join(''), new Set([...(joined.get(parts.join('')) ?? []), ...parts]));
  }
  return joined;
}

/** How strictly words are counted. */
export interface WordOptions {
  /**
   * Also forgive words inside raw HTML attribute values (`id`, `href`, `width`, …) and names, and
   * words that the output joined because a tag removed between them stood alone (`1<x>2` shows
   * `12` in a browser too).
   */
  ignoreAttributeValues?: boolean;
}

/** `source` with the exempt raw HTML and the markup blanked, outside code. */
export function wordsThatMustSurvive(source: string, options: WordOptions = {}): string {
  let text = source;
  // Values go before markup: their pattern needs the tag name that the markup pattern blanks.
  const values = options.ignoreAttributeValues ? [ATTRIBUTE_VALUES, ATTRIBUTE_NAMES] : [];
  const patterns = [...EXEMPT, ...values, ...MARKUP];
  // Code is shown as it is, so every word in it counts, markup or not: patterns are matched
  // against the text with code blanked, and what they match is blanked in both.
  let outsideCode = maskCodeBlocks(source);
  for (const pattern of patterns) {
    for (const match of outsideCode.matchAll(pattern)) {
      const end = match.index + match[0].length;
      text = blank(text, match.index, end);
      outsideCode = blank(outsideCode, match.index, end);
    }
  }
  return text;
}

/**
 * `text` with its percent escapes read as the characters: the export writes link URLs as
 * markdown-it normalises them (`]]https://…` becomes `%5D%5Dhttps://…`), and no word is lost.
 */
function decodePercents(text: string): string {
  return text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/**
 * The words of `source` that `output` has fewer of (each as often as it is missing): the
 * no-silent-loss rule wants none. Character references in the output are read as the characters.
 */
export function missingWords(source: string, output: string, options: WordOptions = {}): string[] {
  shared ??= new MarkdownItConstructor();
  const text = shared.utils.unescapeAll(output);
  // A word counts as kept in either reading: with the percent escapes as written or decoded.
  const have = countWords(text);
  const decoded = countWords(decodePercents(text));
  const missing: string[] = [];
  const surviving = wordsThatMustSurvive(source, options);
  const wanted = countWords(surviving);
  for (const [word, count] of wanted) {
    const kept = Math.max(have.get(word) ?? 0, decoded.get(word) ?? 0);
    for (let i = kept; i < count; i++) missing.push(word);
  }
  if (missing.length === 0) return missing;
  // A word the output holds only joined to the next, as the source's delimiters had it shown.
  const delimited = delimitedWords(surviving);
  const joinedInOutput = (word: string) =>
    [...have.keys()].some((other) => !wanted.has(other) && delimited.get(other)?.has(word));
  if (!options.ignoreAttributeValues) return missing.filter((word) => !joinedInOutput(word));
  const joined = [...have.keys()].filter((word) => !wanted.has(word));
  return missing.filter((word) => !joined.some((other) => other.includes(word)));
}
