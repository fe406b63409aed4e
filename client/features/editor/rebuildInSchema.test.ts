import { getSchema } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { describe, expect, it } from 'vitest';
import { contentExtensions, inkwellSchema } from '../../../common/editor/extensions.ts';
import { parseMarkdown } from '../../../common/editor/markdown/parseMarkdown.ts';
import { rebuildInSchema } from './rebuildInSchema.ts';

const MARKDOWN = `# Title

Some **bold**, *italic*, \`code\` and a [link](https://example.com "tip") in a line,
then a soft break.

- [ ] a task
- [x] done

1. one
2. two
   - nested with ~~strike~~

> quoted

\`\`\`ts
const x = 1;
\`\`\`

| a | b |
| - | :-: |
| 1 | **2** |

![alt](https://example.com/i.png)

<div>raw html</div>
`;

function types(doc: ProseMirrorNode) {
  const seen = new Set<unknown>();
  doc.descendants((node) => {
    seen.add(node.type.schema);
    for (const mark of node.marks) seen.add(mark.type.schema);
  });
  return seen;
}

describe('rebuildInSchema', () => {
  it("rebuilds a document of the shared schema in an editor's own schema, node for node", () => {
    const doc = parseMarkdown(MARKDOWN, inkwellSchema());
    const own = getSchema(contentExtensions());
    const rebuilt = rebuildInSchema(doc, own);
    expect(rebuilt.type.schema).toBe(own);
    expect(types(rebuilt)).toEqual(new Set([own]));
    expect(() => rebuilt.check()).not.toThrow();
    expect(rebuilt.eq(own.nodeFromJSON(doc.toJSON()))).toBe(true);
    expect(rebuilt.toJSON()).toEqual(doc.toJSON());
  });

  it('returns a document already in the schema as it is', () => {
    const doc = parseMarkdown('plain', inkwellSchema());
    expect(rebuildInSchema(doc, inkwellSchema())).toBe(doc);
  });
});
