/**
 * The one allow-list of inline CSS that a document may carry, shared by the HTML sanitiser, the
 * stored-JSON check, pasted HTML and the browser's second sanitising pass. It holds exactly what
 * Inkwell itself writes (text colour, highlight colour, alignment, an image's size): anything else
 * in a `style` attribute, `position: fixed` above all, could draw over the app (docs/PRODUCT.md,
 * "Raw HTML").
 */

/** A colour Inkwell may write into a style: hex, rgb(a)/hsl(a) of plain numbers, or a name. */
export function isSafeColor(value: string): boolean {
  return /^(?:#[0-9a-f]{3,8}|(?:rgb|hsl)a?\([\d\s.,%/]+\)|[a-z]{3,20})$/i.test(value);
}

/** The alignments of the text-align mark and of table columns. */
export function isSafeTextAlign(value: string): boolean {
  return /^(?:left|right|center|justify|start|end)$/i.test(value);
}

/** An image size: a plain number of pixels (at most five digits), as the export writes it. */
export function isSafeSize(value: string): boolean {
  return /^\d{1,5}$/.test(value);
}

/** An image size in CSS: a bounded length in px or %, or `auto`. */
function isSafeCssSize(value: string): boolean {
  return /^(?:\d{1,4}(?:\.\d{1,3})?(?:px|%)|0|auto)$/i.test(value);
}

/** Declarations allowed on any element, with the check for their value. */
const DECLARATIONS: Record<string, (value: string) => boolean> = {
  color: isSafeColor,
  'background-color': isSafeColor,
  'text-align': isSafeTextAlign,
};

/** Elements whose box is replaced content: their size cannot push text out of its column. */
const MEDIA = new Set(['img', 'video', 'picture', 'source']);
const MEDIA_DECLARATIONS: Record<string, (value: string) => boolean> = {
  width: isSafeCssSize,
  height: isSafeCssSize,
};

function allows(element: string, property: string, value: string): boolean {
  const check =
    (Object.hasOwn(DECLARATIONS, property) ? DECLARATIONS[property] : undefined) ??
    (MEDIA.has(element) && Object.hasOwn(MEDIA_DECLARATIONS, property)
      ? MEDIA_DECLARATIONS[property]
      : undefined);
  return check !== undefined && check(value);
}

/** What `filterStyle` made of a style value. */
export interface FilteredStyle {
  /** The declarations that stay, written `name: value; name: value`; '' when none does. */
  style: string;
  /** True when every declaration of the input stays, so it may be kept as written. */
  unchanged: boolean;
}

/**
 * Keeps the declarations of a `style` attribute value (decoded) that the allow-list accepts for
 * element `element` (lower-case tag name). Escapes and comments can disguise any property or
 * value, and Inkwell never writes them, so a style holding one keeps nothing. The values allowed
 * hold no `;`, quotes or brackets other than digits in `rgb()`, so splitting on `;` is exact.
 */
export function filterStyle(element: string, style: string): FilteredStyle {
  if (/[\\"'{}<>@]|\/\*|\*\//.test(style)) return { style: '', unchanged: false };
  const kept: string[] = [];
  let unchanged = true;
  for (const part of style.split(';')) {
    const declaration = part.trim();
    if (declaration === '') continue;
    const colon = declaration.indexOf(':');
    const property = colon < 0 ? '' : declaration.slice(0, colon).trim().toLowerCase();
    const value = colon < 0 ? '' : declaration.slice(colon + 1).trim();
    if (allows(element, property, value)) kept.push(`${property}: ${value}`);
    else unchanged = false;
  }
  return { style: kept.join('; '), unchanged };
}
