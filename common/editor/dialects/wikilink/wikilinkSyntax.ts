import { isAllowedLinkUrl } from '../../url.ts';

/** What a wikilink says, split into the parts it is written with. */
export interface WikilinkParts {
  /** The note or file it points at, as written (`Title`, `folder/Note`, `image.png`); '' for a heading of the same note. */
  target: string;
  /** The heading or block it points into, with its `#` or `^` as written (`#Plans`, `^abc`, `#^abc`); '' for none. */
  fragment: string;
  /** The text shown instead of the target, after `|`; null when there is no `|`. */
  alias: string | null;
  /** `![[…]]`: the target is shown in place rather than linked. */
  embed: boolean;
}

/**
 * The most characters between `[[` and `]]`. Obsidian sets none, but file names stop at 255 and no
 * heading or alias comes near this; anything longer stays text, so that a file of brackets cannot
 * make one link swallow a page.
 */
export const MAX_WIKILINK_CHARS = 1000;

const OPEN = 0x5b; // [
const CLOSE = 0x5d; // ]
const BANG = 0x21; // !
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Reads the wikilink (or, from a `!`, the embed) that starts at `pos` of `src`, ending before
 * `max`: its parts and the position after its `]]`, or null when none starts there. Between the
 * brackets there is no bracket and no line break, as Obsidian reads them; a target that breaks
 * the link rule (`[[javascript:…]]`) or holds control characters is no wikilink, and stays text.
 */
export function readWikilink(
  src: string,
  pos: number,
  max = src.length,
): { parts: WikilinkParts; end: number } | null {
  const embed = src.charCodeAt(pos) === BANG;
  const open = embed ? pos + 1 : pos;
  if (src.charCodeAt(open) !== OPEN || src.charCodeAt(open + 1) !== OPEN) return null;
  const limit = Math.min(max - 1, open + 2 + MAX_WIKILINK_CHARS + 1);
  for (let i = open + 2; i < limit; i++) {
    const c = src.charCodeAt(i);
    if (c === OPEN || c === 0x0a || c === 0x0d) return null;
    if (c !== CLOSE) continue;
    if (src.charCodeAt(i + 1) !== CLOSE) return null;
    const parts = splitWikilink(src.slice(open + 2, i), embed);
    return parts ? { parts, end: i + 2 } : null;
  }
  return null;
}

/** The parts of the text between `[[` and `]]`, or null when it is no wikilink. */
function splitWikilink(inner: string, embed: boolean): WikilinkParts | null {
  const pipe = inner.indexOf('|');
  const left = pipe === -1 ? inner : inner.slice(0, pipe);
  const alias = pipe === -1 ? null : inner.slice(pipe + 1);
  const hash = left.search(/[#^]/);
  const target = hash === -1 ? left : left.slice(0, hash);
  const fragment = hash === -1 ? '' : left.slice(hash);
  if (target.trim() === '' && fragment.replace(/^#?\^?/, '').trim() === '') return null;
  if (CONTROL.test(inner) || !isAllowedLinkUrl(target)) return null;
  return { target, fragment, alias, embed };
}

/** The Markdown of a wikilink, exactly as it was read. */
export function wikilinkSource(parts: WikilinkParts): string {
  const alias = parts.alias === null ? '' : `|${parts.alias}`;
  return `${parts.embed ? '!' : ''}[[${parts.target}${parts.fragment}${alias}]]`;
}

/** The parts of a node's attributes, with anything that is not of its kind as empty. */
export function wikilinkParts(attrs: Record<string, unknown>): WikilinkParts {
  return {
    target: typeof attrs.target === 'string' ? attrs.target : '',
    fragment: typeof attrs.fragment === 'string' ? attrs.fragment : '',
    alias: typeof attrs.alias === 'string' ? attrs.alias : null,
    embed: attrs.embed === true,
  };
}

/**
 * True when attributes from outside (document JSON) are a wikilink that its Markdown would read
 * back as the same: no `]]`, `|` or line break smuggled into a part, and a target the link rule
 * allows.
 */
export function isWellFormedWikilink(attrs: Record<string, unknown>): boolean {
  const parts = wikilinkParts(attrs);
  const source = wikilinkSource(parts);
  const read = readWikilink(source, 0);
  return (
    read !== null &&
    read.end === source.length &&
    read.parts.target === parts.target &&
    read.parts.fragment === parts.fragment &&
    read.parts.alias === parts.alias &&
    read.parts.embed === parts.embed
  );
}

/** The heading a fragment points at (the last of `#A#B`), or null for a block or none. */
export function headingOf(fragment: string): string | null {
  if (!fragment.startsWith('#') || fragment.startsWith('#^')) return null;
  const headings = fragment.split('#').filter((part) => part.trim() !== '');
  return headings.length > 0 ? headings[headings.length - 1]!.trim() : null;
}

/** The block id a fragment points at (`^id` or `#^id`), or null. */
export function blockOf(fragment: string): string | null {
  const match = /^#?\^(.+)$/.exec(fragment);
  return match ? match[1]!.trim() : null;
}

/** What a wikilink shows: its alias, else its target and heading as Obsidian shows them. */
export function wikilinkLabel(parts: WikilinkParts): string {
  if (parts.alias !== null && parts.alias.trim() !== '') return parts.alias;
  const inside = headingOf(parts.fragment) ?? blockOf(parts.fragment);
  const target = parts.target.trim();
  if (!inside) return target;
  return target ? `${target} › ${inside}` : inside;
}
