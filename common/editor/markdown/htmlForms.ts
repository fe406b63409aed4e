/**
 * The exact HTML that the serializer writes for what Markdown cannot say (underline, colours,
 * links with a target, sized images, videos, alignment). The parser turns HTML back into marks
 * and nodes only when it is written exactly this way, so every file comes back out as it went in.
 */

/** Escapes an attribute value for a double-quoted HTML attribute. */
export function escapeAttr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** Writes an opening tag with the given attributes in order, skipping null and empty ones. */
export function openTag(name: string, attrs: Array<[string, string | number | null | undefined]>) {
  let out = `<${name}`;
  for (const [key, value] of attrs) {
    if (value === null || value === undefined || value === '') continue;
    out += ` ${key}="${escapeAttr(String(value))}"`;
  }
  return `${out}>`;
}

/** The colours the serializer may write into a style: the shared style allow-list's. */
export { isSafeColor } from '../html/style.ts';

/** `<span style="color: …">` for the text colour mark. */
export const colorTag = (color: string) => `<span style="color: ${color}">`;

/** `<mark>` or `<mark style="background-color: …">` for the highlight mark. */
export const highlightTag = (color: string | null) =>
  color ? `<mark style="background-color: ${color}">` : '<mark>';

/** An `<a>` with the link attributes Markdown cannot hold. */
export function linkTag(attrs: {
  href: string;
  title?: string | null;
  target?: string | null;
  rel?: string | null;
  class?: string | null;
}): string {
  return openTag('a', [
    ['href', attrs.href],
    ['title', attrs.title],
    ['target', attrs.target],
    ['rel', attrs.rel],
    ['class', attrs.class],
  ]);
}

/** An `<img>` for an image with a size. */
export function imageTag(attrs: {
  src: string;
  alt?: string | null;
  title?: string | null;
  width?: string | number | null;
  height?: string | number | null;
}): string {
  return openTag('img', [
    ['src', attrs.src],
    ['alt', attrs.alt],
    ['title', attrs.title],
    ['width', attrs.width],
    ['height', attrs.height],
  ]);
}

/** The `<iframe>` a YouTube video is written as. */
export function videoTag(attrs: {
  src: string;
  width?: number | string | null;
  height?: number | string | null;
}): string {
  return `${openTag('iframe', [
    ['src', attrs.src],
    ['width', attrs.width],
    ['height', attrs.height],
  ]).slice(0, -1)} allowfullscreen></iframe>`;
}

/** The wrapper around blocks with a text alignment. */
export const alignOpen = (align: string) => `<div align="${align}">`;
export const ALIGN_CLOSE = '</div>';
export const ALIGN_OPEN_RE = /^<div align="(left|center|right|justify)">$/;
