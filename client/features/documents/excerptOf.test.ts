import { describe, expect, it } from 'vitest';
import { inkwellSchema } from '../../../common/editor/extensions.ts';
import { excerptOf } from './excerptOf.ts';

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
});
