import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '../../../../../common/editor/markdown/parseMarkdown.ts';
import { frontMatterAsBlock } from './frontMatterAsBlock.ts';

describe('pasted front matter', () => {
  it('becomes a YAML code block holding its source', () => {
    const doc = frontMatterAsBlock(parseMarkdown('---\ntitle: A # note\n---\n\nText.\n'));
    expect(doc.firstChild?.type.name).toBe('codeBlock');
    expect(doc.firstChild?.attrs.language).toBe('yaml');
    expect(doc.firstChild?.textContent).toBe('---\ntitle: A # note\n---');
    expect(doc.child(1).textContent).toBe('Text.');
  });

  it('leaves a document without front matter as it is', () => {
    const doc = parseMarkdown('Text.\n');
    expect(frontMatterAsBlock(doc)).toBe(doc);
  });
});
