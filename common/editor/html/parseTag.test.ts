import { describe, expect, it } from 'vitest';
import { getAttr, parseStyle, parseTag, type ParsedTag } from './parseTag.ts';

/** The tag, failing the test when `raw` is not one. */
function tag(raw: string): ParsedTag {
  const parsed = parseTag(raw);
  if (!parsed) throw new Error(`not a tag: ${raw}`);
  return parsed;
}

/** Attribute names and values, in order. */
function pairs(raw: string): Array<[string, string]> {
  return tag(raw).attrs.map((attr) => [attr.name, attr.value]);
}

describe('parseTag', () => {
  it('reads double-quoted, single-quoted, unquoted and valueless attributes', () => {
    expect(pairs(`<a href="x y" title='a "b"' target=_blank download>`)).toEqual([
      ['href', 'x y'],
      ['title', 'a "b"'],
      ['target', '_blank'],
      ['download', ''],
    ]);
  });

  it('lower-cases tag and attribute names but not values', () => {
    const parsed = tag('<IMG SRC="Logo.PNG" Width=100>');
    expect(parsed.name).toBe('img');
    expect(parsed.attrs.map((a) => [a.name, a.value])).toEqual([
      ['src', 'Logo.PNG'],
      ['width', '100'],
    ]);
  });

  it('reads attributes split over lines, with spaces around =', () => {
    expect(pairs('<img\n  src = "a.png"\r\n\talt=\n"A"\n/>')).toEqual([
      ['src', 'a.png'],
      ['alt', 'A'],
    ]);
  });

  it('keeps each attribute as written in raw', () => {
    expect(tag(`<img src = "a.png" alt='x' width=1 hidden>`).attrs.map((a) => a.raw)).toEqual([
      'src = "a.png"',
      "alt='x'",
      'width=1',
      'hidden',
    ]);
  });

  it('tells start, end and self-closing tags apart', () => {
    expect(tag('<br/>')).toEqual({ name: 'br', closing: false, selfClosing: true, attrs: [] });
    expect(tag('</A >')).toEqual({ name: 'a', closing: true, selfClosing: false, attrs: [] });
    expect(tag('<img src="x" />').selfClosing).toBe(true);
    expect(tag('<div>').selfClosing).toBe(false);
  });

  it('reads a slash after an unquoted value as part of the value, as browsers do', () => {
    const parsed = tag('<a href=x/>');
    expect(parsed.selfClosing).toBe(false);
    expect(getAttr(parsed, 'href')).toBe('x/');
  });

  it('decodes character references in values by the attribute rules', () => {
    expect(pairs('<a href="?a=1&amp;b=2&copy=3" title="&lt;b&gt; &#169; &#xA9; &copy">')).toEqual([
      ['href', '?a=1&b=2&copy=3'],
      ['title', '<b> © © ©'],
    ]);
    expect(getAttr(tag('<a href="&#106;avascript&colon;x">'), 'href')).toBe('javascript:x');
  });

  it('keeps > and quotes of the other kind inside a quoted value', () => {
    expect(pairs(`<a title="a > b 'c'" alt='</a>'>`)).toEqual([
      ['title', "a > b 'c'"],
      ['alt', '</a>'],
    ]);
  });

  it('splits attributes where a browser does, even in malformed tags', () => {
    expect(pairs(`<img src=x id/=' onerror=alert(1)//'>`).map(([name]) => name)).toEqual([
      'src',
      'id',
      "='",
      'onerror',
    ]);
    expect(pairs('<a b="1"c=2>')).toEqual([
      ['b', '1'],
      ['c', '2'],
    ]);
  });

  it('reads NUL in a name as U+FFFD', () => {
    expect(tag('<a\0b c\0d=1>').name).toBe('a\uFFFDb');
    expect(tag('<a\0b c\0d=1>').attrs[0]?.name).toBe('c\uFFFDd');
  });

  it('allows whitespace around the tag', () => {
    expect(tag('  <div align="center">\n').name).toBe('div');
  });

  it('returns null for anything but one whole tag', () => {
    for (const raw of [
      '',
      'text',
      '<a>x',
      '<a><b>',
      '<a href="x',
      '<a',
      '< a>',
      '<>',
      '</>',
      '<!-- x -->',
      '<!doctype html>',
      '<?xml?>',
      '</ a>',
    ]) {
      expect(parseTag(raw), raw).toBeNull();
    }
  });

  it('reads the tags the Markdown codec recognises', () => {
    for (const name of ['strong', 'em', 'u', 's']) expect(tag(`<${name}>`).name).toBe(name);
    expect(getAttr(tag('<mark style="background-color: #fef08a">'), 'style')).toBe(
      'background-color: #fef08a',
    );
    expect(getAttr(tag('<span style="color: #e11d48">'), 'style')).toBe('color: #e11d48');
    const link = tag('<a href="https://x.dev" target="_blank" rel="noopener noreferrer">');
    expect([getAttr(link, 'href'), getAttr(link, 'target'), getAttr(link, 'rel')]).toEqual([
      'https://x.dev',
      '_blank',
      'noopener noreferrer',
    ]);
    const image = tag('<img src="a.png" alt="A b" width="100">');
    expect([getAttr(image, 'src'), getAttr(image, 'alt'), getAttr(image, 'width')]).toEqual([
      'a.png',
      'A b',
      '100',
    ]);
    const video = tag(
      '<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ" width="560" height="315" allowfullscreen>',
    );
    expect(video.name).toBe('iframe');
    expect(getAttr(video, 'allowfullscreen')).toBe('');
    expect(getAttr(tag('<div align="center">'), 'align')).toBe('center');
  });
});

describe('getAttr', () => {
  it('returns the first of repeated attributes, as browsers do', () => {
    expect(getAttr(tag('<a href="one" href="two">'), 'href')).toBe('one');
  });

  it('matches the name in any case', () => {
    expect(getAttr(tag('<a HREF="x">'), 'Href')).toBe('x');
  });

  it('returns null for a missing attribute and "" for one without a value', () => {
    expect(getAttr(tag('<details open>'), 'closed')).toBeNull();
    expect(getAttr(tag('<details open>'), 'open')).toBe('');
  });
});

describe('parseStyle', () => {
  it('maps lower-cased property names to trimmed values', () => {
    expect(parseStyle(' Color : #F00 ;BACKGROUND-COLOR:rgb(1, 2, 3);')).toEqual(
      new Map([
        ['color', '#F00'],
        ['background-color', 'rgb(1, 2, 3)'],
      ]),
    );
  });

  it('lets the last declaration of a property win', () => {
    expect(parseStyle('color: red; color: blue').get('color')).toBe('blue');
  });

  it('does not split inside strings, parentheses or escapes', () => {
    const style = parseStyle(
      `background: url(a;b.png); content: "x; y: z"; font-family: 'a;b'; x: a\\;b`,
    );
    expect(style.get('background')).toBe('url(a;b.png)');
    expect(style.get('content')).toBe('"x; y: z"');
    expect(style.get('font-family')).toBe("'a;b'");
    expect(style.get('x')).toBe('a\\;b');
  });

  it('drops comments and declarations without a colon', () => {
    expect(parseStyle('/* c */color/**/: red; nonsense; : x; /* open')).toEqual(
      new Map([['color', 'red']]),
    );
  });

  it('returns an empty map for an empty style', () => {
    expect(parseStyle('').size).toBe(0);
  });
});
