import { getAttributesFromExtensions } from '@tiptap/core';
import type { Schema } from '@tiptap/pm/model';
import { MarkdownSyntax } from '../../../../common/editor/nodes/MarkdownSyntax.ts';
import type { CompareSchema } from './compareDocuments.ts';

/** What a comparison needs of `schema`, as plain data a worker can be sent. */
export function compareSchemaOf(schema: Schema): CompareSchema {
  const types = Object.values(schema.nodes);
  const sourceAttributes: Record<string, string[]> = {};
  // How a Markdown file wrote a node (`*` or `-`, blank lines) is not what a reader sees.
  for (const { type, name } of getAttributesFromExtensions([MarkdownSyntax])) {
    (sourceAttributes[type] ??= []).push(name);
  }
  return {
    textblocks: types.filter((type) => type.isTextblock).map((type) => type.name),
    leaves: types.filter((type) => type.isLeaf && !type.isText).map((type) => type.name),
    sourceAttributes,
  };
}
