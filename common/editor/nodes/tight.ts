import type { Attribute } from '@tiptap/core';

/**
 * Whether a list is tight (no blank lines between items). Markdown renders tight and loose lists
 * differently, so the attribute is kept to bring a file back out as it went in.
 */
export const tightAttribute: Attribute = {
  default: true,
  parseHTML: (element) => element.getAttribute('data-tight') !== 'false',
  renderHTML: (attributes) => (attributes.tight ? {} : { 'data-tight': 'false' }),
};
