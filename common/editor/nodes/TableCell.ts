import type { Attribute } from '@tiptap/core';
// The subpaths, as the package's main module would bring Tiptap's table and its plugins along.
import { TableCell as TableCellBase } from '@tiptap/extension-table/cell';
import { TableHeader as TableHeaderBase } from '@tiptap/extension-table/header';

/** Column alignment of a GFM table (`:--`, `:-:`, `--:`), kept on every cell of the column. */
const align: Attribute = {
  default: null,
  parseHTML: (element) => {
    const value = element.style.textAlign || element.getAttribute('align');
    return value === 'left' || value === 'center' || value === 'right' ? value : null;
  },
  renderHTML: (attributes) =>
    attributes.align ? { style: `text-align: ${String(attributes.align)}` } : {},
};

/** A body cell with its column's alignment. */
export const TableCell = TableCellBase.extend({
  addAttributes() {
    return { ...this.parent?.(), align };
  },
});

/** A header cell with its column's alignment. */
export const TableHeader = TableHeaderBase.extend({
  addAttributes() {
    return { ...this.parent?.(), align };
  },
});
