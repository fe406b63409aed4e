import { describe, expect, it } from 'vitest';
import { inkwellSchema } from '../../../common/editor/extensions.ts';
import { excerptOf, sameExcerpt } from './excerptOf.ts';

const schema = inkwellSchema();
const paragraph = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });

describe('excerptOf', () => {
  it('shows tags and math as written, as the server does', () => {
    const doc = schema.nodeFromJSON({
      type: 'doc',
      content: [
        {
          type: 'paragraph',
          content: [
            { type: 'text', text: 'About ' },
            { type: 'tag', attrs: { name: 'garden' } },
            { type: 'text', text: ' and ' },
            { type: 'mathInline', attrs: { tex: 'x^2' } },
          ],
        },
      ],
    });
    expect(excerptOf(doc)).toBe('About #garden and $x^2$');
  });

  it('joins blocks with a space and collapses whitespace', () => {
    const doc = schema.nodeFromJSON({
      type: 'doc',
      content: [
        { type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text: 'Plan' }] },
        paragraph('First   line'),
        paragraph('Second'),
      ],
    });
    expect(excerptOf(doc)).toBe('Plan First line Second');
  });

  it('keeps the first 160 characters, counting an emoji as one', () => {
    const doc = schema.nodeFromJSON({ type: 'doc', content: [paragraph('😀'.repeat(200))] });
    expect(Array.from(excerptOf(doc))).toHaveLength(160);
  });

  it('is empty for an empty document', () => {
    expect(excerptOf(schema.nodeFromJSON({ type: 'doc', content: [{ type: 'paragraph' }] }))).toBe(
      '',
    );
  });

  it('tells an edit past where the excerpt is read from, without reading the text', () => {
    const long = 'word '.repeat(2000);
    const doc = schema.nodeFromJSON({
      type: 'doc',
      content: [paragraph('Start'), paragraph(long), paragraph('End')],
    });
    const endAt = doc.content.size - 2;
    const typedAtEnd = doc.replace(endAt, endAt, doc.slice(1, 2));
    const typedAtStart = doc.replace(2, 2, doc.slice(1, 2));
    expect(sameExcerpt(doc, typedAtEnd)).toBe(true);
    expect(sameExcerpt(doc, typedAtStart)).toBe(false);
    expect(excerptOf(typedAtStart)).not.toBe(excerptOf(doc));
    // Short documents: the same only when every block is.
    const short = schema.nodeFromJSON({ type: 'doc', content: [paragraph('a'), paragraph('b')] });
    // The same two nodes, and one more.
    const longer = short.copy(short.content.addToEnd(schema.nodeFromJSON(paragraph('c'))));
    expect(sameExcerpt(short, short.copy(short.content))).toBe(true);
    expect(sameExcerpt(short, longer)).toBe(false);
  });
});
