import { callOrReturn, getExtensionField, mergeAttributes, Node } from '@tiptap/core';
import type { DOMOutputSpec, Node as ProseMirrorNode, Schema } from '@tiptap/pm/model';
import { TextSelection } from '@tiptap/pm/state';

/** Tiptap's narrowest column, in pixels: what a column without a stored width gets. */
export const CELL_MIN_WIDTH = 25;

/** The CSS declaration of one column: its stored width (at least the minimum) or the minimum. */
export function columnStyle(width: number | undefined): [string, string] {
  return width
    ? ['width', `${String(Math.max(width, CELL_MIN_WIDTH))}px`]
    : ['min-width', `${String(CELL_MIN_WIDTH)}px`];
}

/** The columns of a table, read from its first row, and the width they add up to. */
export interface TableColumns {
  /** One entry per column: its stored width, or undefined. */
  widths: (number | undefined)[];
  /** The sum of the widths, a column without one counting as the minimum. */
  total: number;
  /** Whether every column has a stored width, so that the table's width is fixed. */
  fixed: boolean;
}

/** Reads a table's columns from its first row (a cell spanning columns counts once per column). */
export function tableColumns(table: ProseMirrorNode): TableColumns {
  const widths: (number | undefined)[] = [];
  const row = table.firstChild;
  for (let i = 0; row && i < row.childCount; i++) {
    const { colspan, colwidth } = row.child(i).attrs as { colspan: number; colwidth: unknown };
    for (let j = 0; j < colspan; j++) {
      const width: unknown = Array.isArray(colwidth) ? colwidth[j] : undefined;
      widths.push(typeof width === 'number' && width ? width : undefined);
    }
  }
  const total = widths.reduce<number>((sum, width) => sum + (width ?? CELL_MIN_WIDTH), 0);
  return { widths, total, fixed: widths.every((width) => width !== undefined) };
}

/** A table of empty cells, the first row of header cells when `withHeaderRow`. */
export function createTable(
  schema: Schema,
  rows: number,
  cols: number,
  withHeaderRow: boolean,
): ProseMirrorNode {
  const { table, tableRow, tableCell, tableHeader } = schema.nodes;
  if (!table || !tableRow || !tableCell || !tableHeader) {
    throw new Error('The schema has no table.');
  }
  const cells = (type: typeof tableCell) =>
    Array.from({ length: cols }, () => type.createAndFill()).filter((cell) => cell !== null);
  return table.createChecked(
    null,
    Array.from({ length: rows }, (_, index) =>
      tableRow.createChecked(null, cells(withHeaderRow && index === 0 ? tableHeader : tableCell)),
    ),
  );
}

/** Options of {@link Table}. */
export interface TableOptions {
  /** Attributes every rendered table gets. */
  HTMLAttributes: Record<string, unknown>;
}

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    inkwellTable: {
      /** Replaces the selection with a table of empty cells and puts the cursor in its first. */
      insertTable: (options?: {
        rows?: number;
        cols?: number;
        withHeaderRow?: boolean;
      }) => ReturnType;
    };
  }
}

/**
 * The table node, in place of Tiptap's: the same schema and HTML, without its editing plugins
 * (prosemirror-tables, ~12 kB gzip). Those only matter once a document has a table, so the
 * browser editor loads them then (client/features/editor/tables/); the server and the codec
 * never need them. Table.test.ts keeps the schema and HTML equal to Tiptap's.
 */
export const Table = Node.create<TableOptions>({
  name: 'table',
  content: 'tableRow+',
  tableRole: 'table',
  isolating: true,
  group: 'block',

  addOptions() {
    return { HTMLAttributes: {} };
  },

  parseHTML() {
    return [{ tag: 'table' }];
  },

  renderHTML({ node, HTMLAttributes }) {
    const { widths, total, fixed } = tableColumns(node);
    const userStyle = HTMLAttributes.style as string | undefined;
    const style =
      userStyle || (fixed ? `width: ${String(total)}px` : `min-width: ${String(total)}px`);
    const colgroup: DOMOutputSpec = [
      'colgroup',
      {},
      ...widths.map((width): DOMOutputSpec => {
        const [property, value] = columnStyle(width);
        return ['col', { style: `${property}: ${value}` }];
      }),
    ];
    return [
      'table',
      mergeAttributes(this.options.HTMLAttributes, HTMLAttributes, { style }),
      colgroup,
      ['tbody', 0],
    ];
  },

  addCommands() {
    return {
      insertTable:
        ({ rows = 3, cols = 3, withHeaderRow = true } = {}) =>
        ({ tr, dispatch, editor }) => {
          const node = createTable(editor.schema, rows, cols, withHeaderRow);
          if (dispatch) {
            const offset = tr.selection.from + 1;
            tr.replaceSelectionWith(node)
              .scrollIntoView()
              .setSelection(TextSelection.near(tr.doc.resolve(offset)));
          }
          return true;
        },
    };
  },

  // Every node's spec carries its `tableRole` (rows and cells set theirs), as with Tiptap's table.
  extendNodeSchema(extension) {
    const context = {
      name: extension.name,
      options: extension.options,
      storage: extension.storage,
    };
    return { tableRole: callOrReturn(getExtensionField(extension, 'tableRole', context)) };
  },
});
