import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { FRONT_MATTER } from '../../../../../common/editor/dialects/frontMatter/FrontMatter.ts';
import { serializeFrontMatter } from '../../../../../common/editor/dialects/frontMatter/serializeFrontMatter.ts';

/**
 * Pasted Markdown with front matter: the front matter cannot sit where the text lands (only at
 * the very top of a document), and would be dropped, so it arrives as a YAML code block holding
 * its source, fences and all.
 */
export function frontMatterAsBlock(doc: ProseMirrorNode): ProseMirrorNode {
  const first = doc.firstChild;
  const codeBlock = doc.type.schema.nodes.codeBlock;
  if (first?.type.name !== FRONT_MATTER || !codeBlock) return doc;
  const source = serializeFrontMatter(doc).replace(/\n$/, '');
  const block = codeBlock.create({ language: 'yaml' }, doc.type.schema.text(source));
  return doc.copy(doc.content.replaceChild(0, block));
}
