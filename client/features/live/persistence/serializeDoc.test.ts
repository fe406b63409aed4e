import { describe, expect, it } from 'vitest';
import { inkwellSchema } from '../../../../common/editor/extensions.ts';
import { compactJson } from '../../../../common/editor/compactJson.ts';
import { serializeDoc } from './serializeDoc.ts';

const schema = inkwellSchema();
const doc = schema.nodeFromJSON({
  type: 'doc',
  content: [
    { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Title "quoted"' }] },
    { type: 'paragraph', content: [{ type: 'text', text: 'x', marks: [{ type: 'bold' }] }] },
    { type: 'codeBlock', attrs: { language: 'ts' }, content: [{ type: 'text', text: 'a\nb' }] },
  ],
});

describe('serializeDoc', () => {
  it('writes exactly what JSON.stringify(compactJson(doc)) writes', () => {
    expect(serializeDoc(doc)).toBe(JSON.stringify(compactJson(doc)));
  });

  it('stays exact after an edit reuses the unchanged blocks', () => {
    serializeDoc(doc);
    const paragraph = schema.nodes.paragraph?.create(null, schema.text('y'));
    if (!paragraph) throw new Error('no paragraph');
    const changed = doc.copy(doc.content.replaceChild(1, paragraph));
    expect(serializeDoc(changed)).toBe(JSON.stringify(compactJson(changed)));
  });

  it('leaves out attributes at their default, and reads back as the same document', () => {
    const text = serializeDoc(doc);
    expect(text).not.toContain('null');
    expect(text).toContain('"level":2');
    expect(schema.nodeFromJSON(JSON.parse(text)).eq(doc)).toBe(true);
  });
});
