import { describe, expect, it } from 'vitest';
import { inkwellSchema } from '../extensions.ts';
import { readDefinitions } from './linkDefinitions.ts';
import { parseMarkdown } from './parseMarkdown.ts';
import { serializeMarkdown } from './serializeMarkdown.ts';

const roundtrip = (markdown: string) => serializeMarkdown(parseMarkdown(markdown));

describe('reference-style links through import → export', () => {
  it('keeps full, collapsed and shortcut references and their definitions where they were', () => {
    const markdown =
      'See [the spec][Spec], [GFM][] and [Pandoc].\n\n' +
      '[Spec]: https://spec.example/ "The spec"\n' +
      '[gfm]: <https://gfm.example/>\n' +
      "[pandoc]: https://pandoc.example/ 'Pandoc'\n\n" +
      'After the definitions.\n';
    expect(roundtrip(markdown)).toBe(markdown);
  });

  it('keeps image references and a link around an image reference', () => {
    const markdown =
      '[![npm][badge]][pkg]\n\n[badge]: https://img.example/b.svg\n[pkg]: https://pkg.example/\n';
    expect(roundtrip(markdown)).toBe(markdown);
  });

  it('keeps definitions inside a quote and a list, and one that no link uses', () => {
    const markdown = '> [q]: https://q.example/\n\n- item [q]\n\n  [unused]: https://u.example/\n';
    expect(roundtrip(markdown)).toBe(markdown);
  });

  it('gives the link in the document the URL of its definition', () => {
    const doc = parseMarkdown('[x][a]\n\n[a]: https://a.example/ "T"\n');
    const link = doc.firstChild!.firstChild!.marks.find((mark) => mark.type.name === 'link')!;
    expect(link.attrs).toMatchObject({
      href: 'https://a.example/',
      title: 'T',
      reference: 'a',
      syntax: 'full',
    });
  });

  it('writes a reference inline once its link points elsewhere than the definition', () => {
    const schema = inkwellSchema();
    const link = schema.marks.link!.create({
      href: 'https://other.example/',
      reference: 'a',
      syntax: 'shortcut',
    });
    const doc = schema.node('doc', null, [
      schema.node('paragraph', null, schema.text('a', [link])),
      schema.node('linkDefinitions', { markdown: '[a]: https://a.example/' }),
    ]);
    expect(serializeMarkdown(doc)).toBe('[a](https://other.example/)\n\n[a]: https://a.example/\n');
  });

  it('makes an edited shortcut or collapsed reference a full one', () => {
    const doc = parseMarkdown('[Pandoc] and [GFM][]\n\n[pandoc]: /p\n[gfm]: /g\n');
    const schema = inkwellSchema();
    const marks = doc.firstChild!.firstChild!.marks;
    const renamed = schema.node('doc', null, [
      schema.node('paragraph', null, schema.text('the manual', marks)),
      doc.lastChild!,
    ]);
    expect(serializeMarkdown(renamed)).toBe('[the manual][Pandoc]\n\n[pandoc]: /p\n[gfm]: /g\n');
  });

  it('writes definitions changed into something else as text, never as Markdown', () => {
    const schema = inkwellSchema();
    const doc = schema.node('doc', null, [
      schema.node('linkDefinitions', { markdown: '[a]: javascript:alert(1)\n<script>x</script>' }),
    ]);
    const markdown = serializeMarkdown(doc);
    expect(markdown).toBe('\\[a\\]: javascript:alert(1)\n\\<script>x\\</script>\n');
    expect(readDefinitions('[a]: javascript:alert(1)')).toBeNull();
  });

  it('keeps an autolink as an autolink', () => {
    const markdown = 'Autolink: <https://example.com/docs> and <me@example.com>.\n';
    expect(roundtrip(markdown)).toBe(markdown);
  });
});
