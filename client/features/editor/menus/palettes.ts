/** A named colour offered by the text colour or highlight palette. */
export interface Swatch {
  /** The colour's name, read out as part of the swatch's label ("Text color Red"). */
  name: string;
  /** The value stored in the document: a hex colour. */
  value: string;
}

/**
 * Mid-tone text colours: each keeps a contrast of at least 3:1 against both a white page and a
 * near-black one, so a document reads the same in light and dark themes.
 */
export const TEXT_COLORS: readonly Swatch[] = [
  { name: 'Gray', value: '#8a8f98' },
  { name: 'Brown', value: '#a8754f' },
  { name: 'Orange', value: '#e0701f' },
  { name: 'Yellow', value: '#b8860b' },
  { name: 'Green', value: '#2f9e5b' },
  { name: 'Teal', value: '#0f9a9a' },
  { name: 'Blue', value: '#3b82f6' },
  { name: 'Purple', value: '#8b5cf6' },
  { name: 'Pink', value: '#d9468f' },
  { name: 'Red', value: '#e5484d' },
];

/**
 * Highlights are translucent (40 % alpha) so they tint the page instead of replacing it: light
 * text on a dark page and dark text on a light page both stay readable.
 */
export const HIGHLIGHT_COLORS: readonly Swatch[] = [
  { name: 'Yellow', value: '#facc1566' },
  { name: 'Orange', value: '#fb923c66' },
  { name: 'Red', value: '#f8717166' },
  { name: 'Pink', value: '#f472b666' },
  { name: 'Purple', value: '#a78bfa66' },
  { name: 'Blue', value: '#60a5fa66' },
  { name: 'Teal', value: '#2dd4bf66' },
  { name: 'Green', value: '#4ade8066' },
  { name: 'Brown', value: '#c0845266' },
  { name: 'Gray', value: '#a1a1aa66' },
];
