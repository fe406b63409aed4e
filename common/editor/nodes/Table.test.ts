import { getSchema } from '@tiptap/core';
import { Document } from '@tiptap/extension-document';
import { Paragraph } from '@tiptap/extension-paragraph';
import { Text } from '@tiptap/extension-text';
import {
  Table as TiptapTable,
  TableRow as TiptapRow,
  createColGroup,
  createTable as tiptapCreateTable,
} from '@tiptap/extension-table';
import type { NodeType, Schema } from '@tiptap/pm/model';
import { describe, expect, it } from 'vitest';
import { inkwellSchema } from '../extensions.ts';
import { MarkdownSyntax } from './MarkdownSyntax.ts';
import { CELL_MIN_WIDTH, createTable, tableColumns } from './Table.ts';
import { TableCell, TableHeader } from './TableCell.ts';

/**
 * The table part of the schema as it was with Tiptap's table node (configured as Inkwell did),
 * with the attributes that remember a Markdown table's lines.
 */
function tiptapSchema(): Schema {
  return getSchema([
    MarkdownSyntax,
    Document,
    Paragraph,
    Text,
    TiptapTable.configure({ resizable: false }),
    TiptapRow,
    TableHeader,
    TableCell,
  ]);
}

function nodeOf(schema: Schema, name: string): NodeType {
  const type = schema.nodes[name];
  if (!type) throw new Error(`the schema has no ${name}`);
  return type;
}

/** What of a node's spec the schema and the server depend on. */
function specOf(type: NodeType) {
  const { content, group, isolating, tableRole, attrs, parseDOM } =
    type.spec as typeof type.spec & {
      tableRole?: string;
    };
  return {
    content,
    group,
    isolating,
    tableRole,
    attrs: Object.fromEntries(Object.entries(attrs ?? {}).map(([k, v]) => [k, v.default])),
    parseDOM: parseDOM?.map((rule) => rule.tag),
  };
}

const ours = inkwellSchema();
const tiptap = tiptapSchema();
const names = ['table', 'tableRow', 'tableHeader', 'tableCell'];

describe('Table', () => {
  it('has the same spec as Tiptap’s table, its rows and cells included', () => {
    for (const name of names) {
      expect(specOf(nodeOf(ours, name))).toEqual(specOf(nodeOf(tiptap, name)));
    }
    expect(specOf(nodeOf(ours, 'table')).tableRole).toBe('table');
  });

  it('keeps the order of the table nodes in the schema', () => {
    const order = Object.keys(ours.nodes).filter((name) => names.includes(name));
    expect(order).toEqual(names);
  });

  it('renders the same element as Tiptap’s, with or without column widths', () => {
    const cell = (colwidth: number[] | null, colspan = 1) =>
      nodeOf(ours, 'tableCell').createAndFill({ colwidth, colspan });
    const row = (cells: ReturnType<typeof cell>[]) =>
      nodeOf(ours, 'tableRow').create(
        null,
        cells.filter((c) => c !== null),
      );
    const tables = [
      createTable(ours, 2, 3, true),
      nodeOf(ours, 'table').create(null, [row([cell([120]), cell([10, 200], 2)])]),
      nodeOf(ours, 'table').create(null, [row([cell([120]), cell(null)])]),
    ];
    for (const table of tables) {
      const spec = nodeOf(ours, 'table').spec.toDOM?.(table);
      const expected = nodeOf(tiptap, 'table').spec.toDOM?.(tiptap.nodeFromJSON(table.toJSON()));
      expect(spec).toEqual(expected);
      expect(createColGroup(table, CELL_MIN_WIDTH).tableWidth).toBe(
        tableColumns(table).fixed ? `${String(tableColumns(table).total)}px` : '',
      );
    }
  });

  it('inserts the same table as Tiptap’s insertTable', () => {
    for (const withHeaderRow of [true, false]) {
      expect(createTable(ours, 3, 2, withHeaderRow).toJSON()).toEqual(
        tiptapCreateTable(ours, 3, 2, withHeaderRow).toJSON(),
      );
    }
  });
});
