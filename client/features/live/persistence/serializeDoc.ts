import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { forEachBlock } from '../../editor/chunks/chunks.ts';
import { compactJson } from '../../../../common/editor/compactJson.ts';

// An edit replaces only the top-level blocks it touches, and nodes are immutable, so the JSON
// text of every other block is reused: saving a large document costs the changed blocks plus
// one string join, instead of a full toJSON and a structured clone of thousands of objects.
const cache = new WeakMap<ProseMirrorNode, string>();

function blockJson(block: ProseMirrorNode): string {
  let json = cache.get(block);
  if (json === undefined) {
    json = JSON.stringify(compactJson(block));
    cache.set(block, json);
  }
  return json;
}

/**
 * The document's JSON as it is sent: `JSON.stringify(compactJson(doc))` (default attributes left
 * out), computed block by block with unchanged blocks reused.
 */
export function serializeDoc(doc: ProseMirrorNode): string {
  const blocks: string[] = [];
  // In the editor the blocks sit in chunks, which are not part of the document (chunks.ts).
  forEachBlock(doc, (block) => blocks.push(blockJson(block)));
  // The same keys in the same order as compactJson, without walking the content: the document's
  // type and attributes on an empty copy.
  const head = compactJson(doc.type.create(doc.attrs));
  const open = JSON.stringify(head).slice(0, -1);
  return blocks.length > 0 ? `${open},"content":[${blocks.join(',')}]}` : `${open}}`;
}
