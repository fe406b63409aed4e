import { describe, expect, it } from 'vitest';
import { compactJson } from '../../../../common/editor/compactJson.ts';
import { inkwellSchema } from '../../../../common/editor/extensions.ts';
import { parseMarkdown } from '../../../../common/editor/markdown/index.ts';
import { contentText } from './contentText.ts';

const schema = inkwellSchema();

describe('contentText', () => {
  it('writes a document as the server writes a version, whatever its length', async () => {
    const markdown = Array.from(
      { length: 3000 },
      (_, i) => `## Part ${i}\n\nSome *text* with a [link](https://example.com/${i}).\n\n- a\n- b`,
    ).join('\n\n');
    const doc = parseMarkdown(markdown, schema);
    const text = await contentText(doc);
    expect(JSON.parse(text)).toEqual(compactJson(doc));
  });

  it('writes an empty document as one', async () => {
    const doc = schema.topNodeType.createAndFill()!;
    expect(JSON.parse(await contentText(doc))).toEqual(compactJson(doc));
  });
});
