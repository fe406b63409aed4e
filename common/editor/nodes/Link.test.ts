import { getSchema } from '@tiptap/core';
import StarterKit from '@tiptap/starter-kit';
import { DOMSerializer, type MarkType, type Schema } from '@tiptap/pm/model';
import { describe, expect, it } from 'vitest';
import { inkwellSchema } from '../extensions.ts';
import { isAllowedLinkUrl } from '../url.ts';

/** The schema built with Tiptap's own link mark, configured as Inkwell did before its own. */
function tiptapLinkSchema() {
  return getSchema([
    StarterKit.configure({
      link: {
        openOnClick: false,
        autolink: false,
        linkOnPaste: true,
        enableClickSelection: true,
        defaultProtocol: 'https',
        HTMLAttributes: { target: null, rel: null, class: null },
        isAllowedUri: (url) => isAllowedLinkUrl(url),
        shouldAutoLink: () => false,
      },
    }),
  ]);
}

function linkOf(schema: Schema): MarkType {
  const type = schema.marks.link;
  if (!type) throw new Error('the schema has no link mark');
  return type;
}

function attrDefaults(type: MarkType): Record<string, unknown> {
  return Object.fromEntries(Object.entries(type.spec.attrs ?? {}).map(([k, v]) => [k, v.default]));
}

describe('Link', () => {
  const ours = linkOf(inkwellSchema());
  const tiptap = linkOf(tiptapLinkSchema());

  it('has the attributes and defaults of Tiptap’s link mark, and how Markdown wrote it', () => {
    const markdown = { syntax: null, reference: null };
    expect(attrDefaults(ours)).toEqual({
      href: null,
      target: null,
      rel: null,
      class: null,
      title: null,
      ...markdown,
    });
    expect(attrDefaults(ours)).toEqual({ ...attrDefaults(tiptap), ...markdown });
  });

  it('keeps Tiptap’s mark spec: not inclusive, same excludes, spanning and parse rule', () => {
    for (const key of ['inclusive', 'excludes', 'spanning', 'group'] as const) {
      expect(ours.spec[key]).toEqual(tiptap.spec[key]);
    }
    expect(ours.spec.inclusive).toBe(false);
    expect(ours.spec.parseDOM?.map((rule) => rule.tag)).toEqual(['a[href]']);
    expect(tiptap.spec.parseDOM?.map((rule) => rule.tag)).toEqual(['a[href]']);
  });

  it('is the outermost mark, as before', () => {
    expect(Object.keys(inkwellSchema().marks)[0]).toBe('link');
  });

  it('renders the same element as Tiptap’s, and blanks a forbidden href', () => {
    const render = (type: MarkType, attrs: Record<string, unknown>) =>
      DOMSerializer.renderSpec(
        fakeDocument(),
        type.spec.toDOM?.(type.create(attrs), true) ?? ['a', 0],
      ).dom.toString();
    for (const attrs of [
      { href: 'https://example.com', title: 'T' },
      { href: 'https://example.com', target: '_blank', rel: 'x', class: 'c' },
      { href: 'javascript:alert(1)' },
    ]) {
      expect(render(ours, attrs)).toBe(render(tiptap, attrs));
    }
    expect(render(ours, { href: 'javascript:alert(1)' })).toBe('<a href="">');
  });

  it('renders no href or title that is not text, such as a list holding a script URL', () => {
    const render = (attrs: Record<string, unknown>) =>
      DOMSerializer.renderSpec(
        fakeDocument(),
        ours.spec.toDOM!(ours.create(attrs), true),
      ).dom.toString();
    expect(render({ href: ['javascript:alert(1)'], title: ['javascript:alert(1)'] })).toBe('<a>');
    expect(render({ href: { toString: 'javascript:alert(1)' }, title: 7 })).toBe('<a>');
    expect(render({ href: '/docs', title: 'T' })).toBe('<a href="/docs" title="T">');
  });
});

/** Just enough of a DOM document for `renderSpec`, printing elements as their opening tag. */
function fakeDocument(): Document {
  const createElement = () => {
    const attrs: [string, string][] = [];
    return {
      setAttribute: (name: string, value: string) => attrs.push([name, value]),
      appendChild: () => undefined,
      toString: () => `<a${attrs.map(([n, v]) => ` ${n}="${v}"`).join('')}>`,
    };
  };
  return { createElement } as unknown as Document;
}
