import { getStyleProperty, type Attribute } from '@tiptap/core';
import { isSafeColor, isSafeSize } from '../html/style.ts';

/** The alignments the editor offers and the export writes. */
const ALIGNMENTS = new Set(['left', 'center', 'right', 'justify']);

/** A declared colour that passes the shared allow-list, else null. */
function safeColor(value: string | null | undefined): string | null {
  const color = value?.trim();
  return color && isSafeColor(color) ? color : null;
}

/**
 * The text colour of the textStyle mark. Tiptap's own reads any `color` value (`var(--x)`) from
 * pasted HTML and writes whatever it holds back into a style; this one takes only the colours of
 * the shared allow-list, on the way in and on the way out.
 */
export const colorAttribute: Attribute = {
  default: null,
  parseHTML: (element) => safeColor(getStyleProperty(element, 'color') ?? element.style.color),
  renderHTML: (attributes) => {
    const color = safeColor(attributes.color as string | null);
    return color ? { style: `color: ${color}` } : {};
  },
};

/**
 * The highlight colour. Tiptap's own copies `data-color` into a style unchecked, so
 * `data-color="red; position: fixed"` pasted from a page would position the mark.
 */
export const highlightColorAttribute: Attribute = {
  default: null,
  parseHTML: (element) =>
    safeColor(
      element.getAttribute('data-color') ??
        getStyleProperty(element, 'background-color') ??
        element.style.backgroundColor,
    ),
  renderHTML: (attributes) => {
    const color = safeColor(attributes.color as string | null);
    return color
      ? { 'data-color': color, style: `background-color: ${color}; color: inherit` }
      : {};
  },
};

/** Paragraph and heading alignment, written into a style only when it is one of the four. */
export const textAlignAttribute: Attribute = {
  default: null,
  parseHTML: (element) => {
    const align = element.style.textAlign;
    return ALIGNMENTS.has(align) ? align : null;
  },
  renderHTML: (attributes) => {
    const align = attributes.textAlign as unknown;
    return typeof align === 'string' && ALIGNMENTS.has(align)
      ? { style: `text-align: ${align}` }
      : {};
  },
};

/** An image's width or height: a number of pixels, as the export writes it, else nothing. */
export function sizeAttribute(name: 'width' | 'height'): Attribute {
  const safe = (value: unknown): string | null =>
    (typeof value === 'string' || typeof value === 'number') && isSafeSize(String(value))
      ? String(value)
      : null;
  return {
    default: null,
    parseHTML: (element) => safe(element.getAttribute(name)),
    renderHTML: (attributes) => {
      const value = safe(attributes[name]);
      return value === null ? {} : { [name]: value };
    },
  };
}
