import { blank, findFences, maskCode } from './maskCode.ts';

/** The dialect constructs that writers use beyond CommonMark and GFM, as counted in a source. */
export const CONSTRUCT_KINDS = [
  'frontMatter',
  'wikilink',
  'embed',
  'blockId',
  'callout',
  'alert',
  'footnoteRef',
  'footnoteDef',
  'inlineFootnote',
  'inlineMath',
  'displayMath',
  'mermaid',
  'highlight',
  'comment',
  'tag',
  'referenceDefinition',
  'referenceLink',
] as const;

/** One kind of construct. */
export type ConstructKind = (typeof CONSTRUCT_KINDS)[number];

/** The source text of every construct found, by kind (a text appears once per occurrence). */
export type Constructs = Record<ConstructKind, string[]>;

const ALERT_TYPES = new Set(['NOTE', 'TIP', 'IMPORTANT', 'WARNING', 'CAUTION']);

/**
 * A tag after white space or an opening parenthesis, but not a link's `](#anchor)`; it holds
 * letters, digits, `_`, `-` and `/` for nesting, and at least one character that is no digit.
 */
const TAG = /(?<=^|\s|[^\]]\()#[\p{L}\p{N}\p{M}_/-]*[\p{L}\p{M}_/-][\p{L}\p{N}\p{M}_/-]*/gmu;

/**
 * Finds the constructs of Obsidian, GitHub and docs-site Markdown in `source` outside code, each
 * with its exact text so that a round trip can be checked for keeping it verbatim.
 */
export function countConstructs(source: string): Constructs {
  const found = Object.fromEntries(
    CONSTRUCT_KINDS.map((kind) => [kind, []]),
  ) as unknown as Constructs;
  let text = source;

  // Front matter: a YAML block that opens on the very first line.
  const front = /^---[ \t]*\n[\s\S]*?\n(?:---|\.\.\.)[ \t]*(?:\n|$)/.exec(text);
  if (front) {
    found.frontMatter.push(front[0].replace(/\n$/, ''));
    text = blank(text, 0, front[0].length);
  }

  for (const fence of findFences(text)) {
    if (fence.lang === 'mermaid') found.mermaid.push(text.slice(fence.start, fence.end).trimEnd());
  }
  text = maskCode(text);

  // Comments and display math hide whatever they contain (a `#` in TeX is no tag).
  text = take(text, /%%[\s\S]*?%%/g, found.comment);
  text = take(text, /\$\$[\s\S]+?\$\$/g, found.displayMath);

  const labels = new Set<string>();
  text = take(text, /^ {0,3}\[(?!\^)([^\]\n]+)\]:[ \t]*\S.*$/gm, found.referenceDefinition, (m) =>
    labels.add(normaliseLabel(m[1]!)),
  );
  text = take(text, /^ {0,3}\[\^[^\]\s]+\]:.*$/gm, found.footnoteDef);

  for (const line of text.split('\n')) {
    const marker = /^[ \t]*(?:>[ \t]?)+\[!([\w-]+)\]([+-]?)(.*)$/.exec(line);
    if (!marker) continue;
    const header = line.slice(line.indexOf('[!')).trimEnd();
    const isAlert = ALERT_TYPES.has(marker[1]!) && marker[2] === '' && marker[3]!.trim() === '';
    (isAlert ? found.alert : found.callout).push(header);
  }

  text = take(text, /!\[\[[^[\]\n]+\]\]/g, found.embed);
  text = take(text, /\[\[[^[\]\n]+\]\]/g, found.wikilink);
  // An inline footnote may wrap onto following lines, but never past a blank one.
  text = take(text, /\^\[(?:[^\]\n]|\n(?![ \t]*\n))+\]/g, found.inlineFootnote);
  text = take(text, /\[\^[^\]\s]+\]/g, found.footnoteRef);
  text = take(text, /(?<=\s)\^[A-Za-z0-9-]+$/gm, found.blockId);
  text = take(text, /(?<![=\\])==(?=[^=\s])[^=\n]*[^=\s]==(?!=)/g, found.highlight);
  text = take(text, /(?<![\\$])\$(?=[^\s$])[^$\n]*?[^\s\\$]\$(?![\d$])/g, found.inlineMath);
  text = take(text, /(?<![\]\\])\[([^[\]\n]+)\]\[([^[\]\n]*)\]/g, found.referenceLink);
  take(
    text,
    /(?<![\]\\!])\[([^[\]\n]+)\](?![[(:])/g,
    found.referenceLink,
    () => undefined,
    (m) => labels.has(normaliseLabel(m[1]!)),
  );
  for (const match of text.matchAll(TAG)) found.tag.push(match[0]);
  return found;
}

/** How many of each kind of construct were found. */
export function tally(constructs: Constructs): Record<ConstructKind, number> {
  return Object.fromEntries(
    CONSTRUCT_KINDS.map((kind) => [kind, constructs[kind].length]),
  ) as Record<ConstructKind, number>;
}

/**
 * How many of each kind of construct in `source` reappear with the same text in `output`: for each
 * distinct text, the smaller of its counts in the two (a multiset intersection).
 */
export function keptConstructs(source: string, output: string): Record<ConstructKind, number> {
  const before = tally(countConstructs(source));
  const lost = lostConstructs(source, output);
  return Object.fromEntries(
    CONSTRUCT_KINDS.map((kind) => [kind, before[kind] - lost[kind].length]),
  ) as Record<ConstructKind, number>;
}

/** The constructs of `source` that `output` does not have with the same text (a multiset difference). */
export function lostConstructs(source: string, output: string): Constructs {
  const before = countConstructs(source);
  const after = countConstructs(output);
  const lost = {} as Constructs;
  for (const kind of CONSTRUCT_KINDS) {
    const remaining = new Map<string, number>();
    for (const item of after[kind]) remaining.set(item, (remaining.get(item) ?? 0) + 1);
    lost[kind] = [];
    for (const item of before[kind]) {
      const left = remaining.get(item) ?? 0;
      if (left > 0) remaining.set(item, left - 1);
      else lost[kind].push(item);
    }
  }
  return lost;
}

/** Reference labels match case-insensitively with runs of white space folded (CommonMark). */
function normaliseLabel(label: string): string {
  return label.trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * Pushes the matches of `pattern` that pass `accept` into `into` and returns `text` with them
 * blanked, so that a construct is not counted again as part of another kind.
 */
function take(
  text: string,
  pattern: RegExp,
  into: string[],
  onMatch: (match: RegExpMatchArray) => void = () => undefined,
  accept: (match: RegExpMatchArray) => boolean = () => true,
): string {
  let result = text;
  for (const match of text.matchAll(pattern)) {
    if (!accept(match)) continue;
    into.push(match[0]);
    onMatch(match);
    result = blank(result, match.index, match.index + match[0].length);
  }
  return result;
}
