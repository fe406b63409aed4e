import { Fragment, type Mark, type Node as PMNode, type Schema } from '@tiptap/pm/model';

/** Gives word `n` its mark: bold, italic, code and link in turn. */
function markCycle(schema: Schema): (n: number) => Mark {
  const { bold, italic, code, link } = schema.marks;
  if (!bold || !italic || !code || !link) {
    throw new Error('the schema lacks bold, italic, code or link');
  }
  return (n) => {
    switch (n % 4) {
      case 0:
        return bold.create();
      case 1:
        return italic.create();
      case 2:
        return code.create();
      default:
        return link.create({ href: `https://example.com/${n}` });
    }
  };
}

/**
 * The same document with every word of its text blocks marked, alternately bold, italic, code
 * and link, its own marks dropped: the export's worst case for mark bookkeeping.
 */
export function denseMarks(doc: PMNode): PMNode {
  const schema = doc.type.schema;
  const markFor = markCycle(schema);
  let word = 0;
  const rewrite = (node: PMNode): PMNode => {
    if (node.isTextblock && node.type.allowsMarkType(markFor(0).type)) {
      const inline: PMNode[] = [];
      node.forEach((child) => {
        if (!child.isText) {
          inline.push(child);
          return;
        }
        for (const part of (child.text ?? '').split(/(\s+)/)) {
          if (part === '') continue;
          inline.push(/^\s/.test(part) ? schema.text(part) : schema.text(part, [markFor(word++)]));
        }
      });
      return node.copy(Fragment.fromArray(inline));
    }
    if (node.isLeaf || node.isTextblock) return node;
    const children: PMNode[] = [];
    node.forEach((child) => children.push(rewrite(child)));
    return node.copy(Fragment.fromArray(children));
  };
  const dense = rewrite(doc);
  dense.check();
  return dense;
}
