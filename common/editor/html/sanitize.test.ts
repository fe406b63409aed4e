import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../test/seededRandom.ts';
import { isAllowedImageUrl, isAllowedLinkUrl } from '../url.ts';
import { sanitizeHtml, type SanitizeOptions } from './sanitize.ts';
import { filterStyle } from './style.ts';
import { HtmlTokenizer } from './tokenize.ts';

/** The part of jsdom used here (it ships no types). */
interface Jsdom {
  JSDOM: new (html: string) => { window: { document: Document; DOMParser: typeof DOMParser } };
}

const { JSDOM } = createRequire(import.meta.url)('jsdom') as Jsdom;
const parser = new new JSDOM('').window.DOMParser();

interface Fixture {
  title?: string;
  payload: string;
}

const fixtures = (
  JSON.parse(
    readFileSync(
      new URL('../../../test-corpus/xss/dompurify-fixtures.json', import.meta.url),
      'utf8',
    ),
  ) as { cases: Fixture[] }
).cases;

const FORBIDDEN_ELEMENTS = new Set(
  `script iframe object embed svg math style base form template frame frameset applet noscript
  textarea title xmp meta link input button select option image`.split(/\s+/),
);
const LINK_ATTRS = new Set(['href', 'action', 'formaction', 'xlink:href', 'cite']);
const IMAGE_ATTRS = new Set(['src', 'poster', 'background']);

/** What a browser would find unsafe in the parsed document, in words; empty when it is safe. */
function unsafeParts(doc: Document): string[] {
  const problems: string[] = [];
  for (const element of doc.querySelectorAll('*')) {
    if (FORBIDDEN_ELEMENTS.has(element.localName)) problems.push(`<${element.localName}>`);
    for (const { name, value } of element.attributes) {
      const where = `${element.localName}[${name}=${JSON.stringify(value)}]`;
      if (name.startsWith('on') || name === 'srcdoc') problems.push(where);
      if (name === 'style' && !filterStyle(element.localName, value).unchanged)
        problems.push(where);
      if (LINK_ATTRS.has(name) && !isAllowedLinkUrl(value)) problems.push(where);
      if (IMAGE_ATTRS.has(name) && !isAllowedImageUrl(value)) problems.push(where);
      if (name === 'srcset' && !value.split(',').every((c) => isAllowedImageUrl(c.trim()))) {
        problems.push(where);
      }
    }
  }
  return problems;
}

/** Start tags as this module's tokenizer reads `html`, as `name[attr,attr]` signatures. */
function ourStartTags(html: string): Set<string> {
  const seen = new Set<string>();
  const tokenizer = new HtmlTokenizer(html);
  for (let token = tokenizer.next(); token; token = tokenizer.next()) {
    if (token.type !== 'tag' || token.closing) continue;
    seen.add(`${token.name}[${[...new Set(token.attrs.map((a) => a.name))].join(',')}]`);
  }
  return seen;
}

/** Elements with attributes that a browser built from `html` (as `doc`) but the tokenizer did not see. */
function unseenByTokenizer(html: string, doc: Document): string[] {
  const ours = ourStartTags(html);
  return [...doc.querySelectorAll('*')]
    .filter((element) => element.attributes.length > 0)
    .map((element) => `${element.localName}[${element.getAttributeNames().join(',')}]`)
    .filter((signature) => !ours.has(signature));
}

describe('sanitizeHtml on safe README HTML', () => {
  const snippets: Record<string, string> = {
    'a centred logo': '<p align="center"><img src="./logo.png" width="200" alt="Logo"></p>',
    'a collapsible section': '<details>\n<summary>Click</summary>\n\ntext\n</details>',
    'an open collapsible section': '<details open>\n<summary><b>Install</b></summary>\n',
    'a comment': '<!-- markdownlint-disable MD033 -->',
    'a comment with tags inside': '<!--\n<p>draft</p>\n-->',
    'a picture with dark and light sources':
      '<picture>\n  <source media="(prefers-color-scheme: dark)" srcset="./logo-dark.png">\n' +
      '  <source media="(prefers-color-scheme: light)" srcset="./logo.png 1x, ./logo@2x.png 2x">\n' +
      '  <img alt="Project logo" src="./logo.png" width="300">\n</picture>',
    'keyboard keys': 'Press <kbd>Ctrl</kbd>+<kbd>Shift</kbd>+<kbd>P</kbd>',
    'subscripts and superscripts': 'H<sub>2</sub>O and E = mc<sup>2</sup>',
    'badges in links':
      '<p align="center">\n  <a href="https://github.com/o/r/actions"><img ' +
      'src="https://github.com/o/r/workflows/CI/badge.svg" alt="CI"></a>\n  <a ' +
      'href="https://www.npmjs.com/package/x"><img src="https://img.shields.io/npm/v/x.svg?' +
      'style=flat&amp;color=blue" alt="npm version"></a>\n</p>',
    'a centred div around Markdown': '<div align="center">\n\n# Title\n\n</div>',
    'line breaks and rules': 'one<br>two<br/>three<br />\n<hr>\n<hr/>',
    'an HTML table':
      '<table>\n  <tr>\n    <td><img src="a.png" width="100"></td>\n' +
      '    <td valign="top" colspan=2>Text</td>\n  </tr>\n</table>',
    anchors: '<a name="install"></a><a id="top"></a>',
    'an inline data image': '<img src="data:image/png;base64,iVBORw0KGgo=" alt="dot">',
    'a table of contents line':
      '<p align="center"><a href="#features">Features</a> • <a href="#install">Install</a></p>',
    'a mail link': '<a href="mailto:me@example.com" target="_blank">Mail me</a>',
    'upper-case, single-quoted and unquoted attributes': "<IMG SRC='logo.png' WIDTH=100 Alt=x>",
    'a coloured span': '<span style="color: #d73a49">red</span>',
    'old centring tags': '<center><font size="2" color="gray">small print</font></center>',
    'text with stray angle brackets': 'if a < b && c > d then <3 and << >>',
    'a lone opening tag': '<kbd>',
    'a lone closing tag': '</kbd>',
    'attributes split over lines': '<img\n  src="shot.png"\n  width="400"\n  alt="Screenshot"\n/>',
  };
  for (const [what, html] of Object.entries(snippets)) {
    it(`keeps ${what} byte for byte`, () => {
      expect(sanitizeHtml(html)).toBe(html);
    });
  }
});

describe('sanitizeHtml on the DOMPurify XSS fixtures', () => {
  fixtures.forEach((fixture, index) => {
    const title = `#${index} ${fixture.title ?? fixture.payload.slice(0, 60)}`;
    it(`leaves nothing executable: ${title}`, () => {
      for (const options of [{}, { markdown: true }]) {
        const out = sanitizeHtml(fixture.payload, options);
        const doc = new JSDOM(out).window.document;
        expect(unsafeParts(doc), title).toEqual([]);
        expect(unseenByTokenizer(out, doc), title).toEqual([]);
        expect(sanitizeHtml(out, options), `${title} (sanitising twice)`).toBe(out);
        // A stored document is sanitised again without the option when it is opened.
        expect(sanitizeHtml(out), `${title} (sanitised again as stored)`).toBe(out);
      }
    });
  });
});

describe('sanitizeHtml on link and image URLs', () => {
  const rejectedLinks = [
    'JaVaScRiPt:alert(1)',
    '  javascript:alert(1)',
    '\tjavascript:alert(1)',
    '\njavascript:alert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    '&#106;avascript:alert(1)',
    '&#x6A;avascript:alert(1)',
    '&#0000106avascript:alert(1)',
    '&#X6A;AVASCRIPT:alert(1)',
    'javascript&colon;alert(1)',
    'java&Tab;script:alert(1)',
    'java&NewLine;script:alert(1)',
    '&#x09;javascript:alert(1)',
    '&#1;javascript:alert(1)',
    'vbscript:msgbox(1)',
    'VBScript:msgbox(1)',
    'file:///etc/passwd',
    'data:text/html,<script>alert(1)</script>',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=',
  ];
  for (const url of rejectedLinks) {
    it(`drops href=${JSON.stringify(url)} and keeps the link text`, () => {
      expect(sanitizeHtml(`<a href="${url}" title="t">x</a>`)).toBe('<a title="t">x</a>');
    });
  }

  it('drops an unquoted or single-quoted javascript: href too', () => {
    expect(sanitizeHtml('<a href=javascript:alert(1)>x</a>')).toBe('<a>x</a>');
    expect(sanitizeHtml("<a href='javascript:alert(1)'>x</a>")).toBe('<a>x</a>');
  });

  const acceptedLinks = [
    'https://example.com/a?b=1&amp;c=2',
    'http://example.com',
    'mailto:someone@example.com',
    './docs/README.md',
    '../up.md',
    '/absolute/path',
    '#section',
    '?query=1',
    'javascript-guide.md',
  ];
  for (const url of acceptedLinks) {
    it(`keeps href=${JSON.stringify(url)}`, () => {
      const html = `<a href="${url}">x</a>`;
      expect(sanitizeHtml(html)).toBe(html);
    });
  }

  it('accepts png, gif, jpeg and webp data URLs as image sources', () => {
    for (const type of ['png', 'gif', 'jpeg', 'webp']) {
      const html = `<img src="data:image/${type};base64,AAAA">`;
      expect(sanitizeHtml(html)).toBe(html);
    }
  });

  it('rejects other image sources', () => {
    for (const url of [
      'javascript:alert(1)',
      'data:image/svg+xml;base64,PHN2Zz4=',
      'data:text/html,x',
      'ftp://example.com/a.png',
      'file:///a.png',
      '&#106;avascript:alert(1)',
    ]) {
      expect(sanitizeHtml(`<img src="${url}" alt="a">`)).toBe('<img alt="a">');
    }
  });

  it('drops a srcset when any of its candidates is not an allowed image', () => {
    expect(sanitizeHtml('<img srcset="a.png 1x, javascript:alert(1) 2x">')).toBe('<img>');
    expect(sanitizeHtml('<source srcset="data:image/svg+xml;base64,AA 2x,a.png">')).toBe(
      '<source>',
    );
    const ok = '<img srcset="data:image/png;base64,AA,BB 1x, b.png 2x">';
    expect(sanitizeHtml(ok)).toBe(ok);
  });

  it('checks poster, background, cite and xlink:href as URLs', () => {
    expect(sanitizeHtml('<table background="javascript:alert(1)">')).toBe('<table>');
    expect(sanitizeHtml('<blockquote cite="vbscript:x">q</blockquote>')).toBe(
      '<blockquote>q</blockquote>',
    );
    expect(sanitizeHtml('<a xlink:href="javascript:alert(1)">x</a>')).toBe('<a>x</a>');
  });
});

describe('sanitizeHtml on elements', () => {
  it('removes script, style and template with their content, which is code', () => {
    expect(sanitizeHtml('a<script>alert(1)</script>b')).toBe('ab');
    expect(sanitizeHtml('a<style>p{color:red}</style>b')).toBe('ab');
    expect(sanitizeHtml('a<template><img src=x onerror=alert(1)></template>b')).toBe('ab');
    expect(sanitizeHtml('a<iframe src="https://x"></iframe>b')).toBe('ab');
  });

  it('keeps the text and allowed elements inside form, object, button and select', () => {
    expect(sanitizeHtml('a<form action="/x"><input name=q><button>Go</button></form>b')).toBe(
      'aGob',
    );
    expect(sanitizeHtml('a<object data="x.swf"><p>fallback</p></object>b')).toBe(
      'a<p>fallback</p>b',
    );
    expect(sanitizeHtml('<select><option>One</option><option>Two</option></select>')).toBe(
      'OneTwo',
    );
  });

  it('keeps the text of textarea, title, xmp and plaintext as text, never as markup', () => {
    expect(sanitizeHtml('a<textarea><b>x</b> &amp; y</textarea>b')).toBe(
      'a&lt;b>x&lt;/b> &amp; yb',
    );
    expect(sanitizeHtml('<title>My page</title>')).toBe('My page');
    expect(sanitizeHtml('a<plaintext><b>everything & after')).toBe('a&lt;b>everything &amp; after');
  });

  it('reads noscript, noembed and noframes content as HTML, sanitised like the rest', () => {
    expect(sanitizeHtml('<noscript><p onclick=x>Turn on JS</p></noscript>')).toBe(
      '<p>Turn on JS</p>',
    );
    expect(sanitizeHtml('<noembed><script>alert(1)</script>text</noembed>')).toBe('text');
  });

  it('keeps the text and links inside svg and math, dropping their elements', () => {
    expect(
      sanitizeHtml(
        '<p>Before <svg width="10"><a href="https://example.com"><text>the link</text></a>' +
          '<style>.x{}</style></svg> after</p>',
      ),
    ).toBe('<p>Before <a href="https://example.com">the link</a> after</p>');
    expect(sanitizeHtml('a<math><mi>x</mi><mo>=</mo><mn>2</mn></math>b')).toBe('ax=2b');
    expect(sanitizeHtml('a<svg><svg></svg><circle r="1"/></svg>b')).toBe('ab');
    expect(sanitizeHtml('a<svg/>b')).toBe('ab');
    expect(sanitizeHtml('<svg><![CDATA[x & <b>]]><desc>y</desc></svg>')).toBe('x &amp; &lt;b>y');
  });

  it('drops links inside svg that break the URL rule, keeping their text', () => {
    expect(sanitizeHtml('<svg><a xlink:href="javascript:alert(1)"><text>t</text></a></svg>')).toBe(
      '<a>t</a>',
    );
  });

  it('removes void elements such as input and meta without eating what follows', () => {
    expect(sanitizeHtml('<input type=checkbox checked> done')).toBe(' done');
    expect(sanitizeHtml('<meta http-equiv="refresh" content="0;url=x">text')).toBe('text');
  });

  it('drops the tags of unknown elements but keeps their text', () => {
    expect(sanitizeHtml('<x-widget a=1>hello</x-widget>')).toBe('hello');
    expect(sanitizeHtml('<html><body onload="alert(1)">hi</body></html>')).toBe('hi');
    expect(sanitizeHtml('<image src=x onerror=alert(1)>')).toBe('');
  });

  it('keeps doctypes, processing instructions and bogus comments as written, inert', () => {
    const html = '<!DOCTYPE html><?xml version="1.0"?><![CDATA[x]]>a</ x>b<?php echo 1; ?>';
    expect(sanitizeHtml(html)).toBe(html);
    const doc = parser.parseFromString(html, 'text/html');
    expect(doc.body.textContent).toBe('ab');
    expect(unsafeParts(doc)).toEqual([]);
  });

  it('keeps a doctype or processing instruction the input ends inside as text', () => {
    expect(sanitizeHtml('a<!DOCTYPE html')).toBe('a&lt;!DOCTYPE html');
    expect(sanitizeHtml('a<?php echo 1 & "<b"')).toBe('a&lt;?php echo 1 &amp; "&lt;b"');
  });

  it('keeps a doctype as written only up to the > that ends it for a browser', () => {
    expect(sanitizeHtml('<!x a="><img src=x onerror=alert(1)>">')).toBe('<!x a="><img src=x>">');
  });

  it('drops an end tag of nothing (</>) and a tag cut off by the end of the input', () => {
    expect(sanitizeHtml('a</>b')).toBe('ab');
    expect(sanitizeHtml('a<img src=x onerror=alert(1)//')).toBe('a');
  });
});

describe('sanitizeHtml on raw HTML from Markdown', () => {
  const markdown = (html: string) => sanitizeHtml(html, { markdown: true });

  it('keeps a tag CommonMark would not read as one as text, when sanitising would lose some of it', () => {
    expect(markdown('<div ]]class="callout">\nhi\n</div>')).toBe(
      '&lt;div ]]class="callout">\nhi\n</div>',
    );
    expect(markdown('[x]: <https://example.com/a.html#b> "B"')).toBe(
      '[x]: &lt;https://example.com/a.html#b> "B"',
    );
    expect(markdown('a \\<not a tag\\> & b')).toBe('a \\&lt;not a tag\\> & b');
    expect(markdown('<svg/onload=alert(1)>')).toBe('&lt;svg/onload=alert(1)>');
  });

  it('keeps a tag cut off by the end of the input as text', () => {
    expect(markdown('<div id="x"\n*hi* & more')).toBe('&lt;div id="x"\n*hi* &amp; more');
    expect(markdown('a</b')).toBe('a&lt;/b');
  });

  it('reads tags CommonMark reads as tags, and script, style and template, as without it', () => {
    for (const html of [
      '<div class="a" onclick="x()">b</div>',
      '<x-widget a=1>hello</x-widget>',
      '<div class="a"title="b">c</div>',
      '<script/src=x>alert(1)</script>after',
      '<style/x>p{}</style>after',
    ]) {
      expect(markdown(html), html).toBe(sanitizeHtml(html));
    }
  });

  it('keeps a text attribute holding markup defused, and drops a URL or style holding it', () => {
    expect(markdown('<img src="a.png" alt="the <!--logo" title=\'a "b" &amp; <b>c\'>')).toBe(
      '<img src="a.png" alt="the < !--logo" title="a &quot;b&quot; &amp; < b>c">',
    );
    expect(markdown('<a href="https://e.com/<b>" style="color: red; <b>">x</a>')).toBe('<a>x</a>');
  });

  it('shows the raw text after a raw-text start tag it keeps as text, as text', () => {
    expect(markdown('<textarea/x>a <b>c</b>')).toBe('&lt;textarea/x>a &lt;b>c&lt;/b>');
  });
});

describe('sanitizeHtml on attributes', () => {
  it('drops event handlers in any case', () => {
    expect(sanitizeHtml('<p onclick="x()" ONMOUSEOVER=y class="c">t</p>')).toBe(
      '<p class="c">t</p>',
    );
  });

  it('drops srcdoc, formaction, action, xmlns and is', () => {
    expect(
      sanitizeHtml('<div srcdoc="x" formaction="y" action="z" xmlns="w" xmlns:x="v" is="q">'),
    ).toBe('<div>');
  });

  it('drops attributes whose names only a parse error could produce', () => {
    expect(sanitizeHtml("<img src=x id/=' onerror=alert(1)//'>")).toBe('<img src=x id>');
    expect(sanitizeHtml('<b "a"=1 x<y=2 =z c=d>t</b>')).toBe('<b c=d>t</b>');
  });

  it('keeps a style of colours and alignment as written', () => {
    for (const safe of [
      '<span style="color: #d73a49">x</span>',
      '<mark style="background-color: rgb(255, 240, 0)">x</mark>',
      '<p style="text-align:center;COLOR: Red;">x</p>',
      '<img src="a.png" style="width: 120px; height: 50%">',
    ]) {
      expect(sanitizeHtml(safe)).toBe(safe);
    }
  });

  it('keeps only the allowed declarations of a style that holds others', () => {
    expect(
      sanitizeHtml('<div style="position:fixed; inset:0; z-index:99999; color: red">x</div>'),
    ).toBe('<div style="color: red">x</div>');
    expect(sanitizeHtml('<span style="color: red; font-weight: bold">x</span>')).toBe(
      '<span style="color: red">x</span>',
    );
    expect(sanitizeHtml('<div style="width: 99999px">x</div>')).toBe('<div>x</div>');
    expect(sanitizeHtml('<img src="a.png" style="width: 99999px">')).toBe('<img src="a.png">');
  });

  it('drops a style that positions, transforms or floats an element', () => {
    for (const style of [
      'position: fixed; inset: 0',
      'position: absolute; left: -5000px',
      'position: sticky; top: 0',
      'transform: translate(-5000px) scale(50)',
      'z-index: 99999',
      'margin: -500px',
      'float: left',
      'color: var(--x)',
      'color: red !important',
      'background-color: red/**/',
      'color: r\\65 d',
    ]) {
      expect(sanitizeHtml(`<span style="${style}">x</span>`), style).toBe('<span>x</span>');
    }
  });

  it('drops a style that could run script or load a URL', () => {
    for (const style of [
      'width: expression(alert(1))',
      'background: url(https://x/y.png)',
      'background: URL(x)',
      'background: u\\72l(x)',
      '-o-link: javascript:alert(1)',
      '@import "x.css"',
      'behavior: url(x.htc)',
      '-moz-binding: x',
      'width: expr/**/ession(alert(1))',
      'width: &#101;xpression(alert(1))',
      'width: ｅｘｐｒｅｓｓｉｏｎ(alert(1))',
      "font-family: '/*'; background: url(x); content: '*/'",
      'background-image: image-set("x.png" 1x)',
    ]) {
      expect(sanitizeHtml(`<span style="${style}">x</span>`), style).toBe('<span>x</span>');
    }
  });

  it('allows only srcset, media, type, width and height on <source>', () => {
    expect(sanitizeHtml('<source src="x.mp4" srcset="a.png" type="image/png" onerror=x>')).toBe(
      '<source srcset="a.png" type="image/png">',
    );
  });

  it('rebuilds a tag from the attributes that stay, each as written', () => {
    expect(sanitizeHtml('<IMG SRC = \'a.png\'\nonerror=x ALT="b c" width=10/>')).toBe(
      '<IMG SRC = \'a.png\' ALT="b c" width=10/>',
    );
    expect(sanitizeHtml('<img src="a.png" onerror="x"/>')).toBe('<img src="a.png" />');
  });

  it('drops attributes from end tags', () => {
    expect(sanitizeHtml('<b>x</b onclick="y">')).toBe('<b>x</b>');
  });
});

describe('sanitizeHtml against mutation XSS', () => {
  it('drops an attribute value holding markup, which the export would copy out verbatim', () => {
    expect(sanitizeHtml('<a title="</a><img src=x onerror=alert(1)>">x</a>')).toBe('<a>x</a>');
    expect(sanitizeHtml('<span title="</style><script>alert(1)</script>">x</span>')).toBe(
      '<span>x</span>',
    );
    expect(sanitizeHtml('<b title="&lt;script&gt;alert(1)&lt;/script&gt;">x</b>')).toBe('<b>x</b>');
    expect(sanitizeHtml('<b title="&lt;!-- x">y</b>')).toBe('<b>y</b>');
  });

  it('keeps an attribute value with a < that forms no tag', () => {
    const html = '<abbr title="a < b, c > d, 1 <3">x</abbr>';
    expect(sanitizeHtml(html)).toBe(html);
  });

  it('keeps markup inside a comment as the comment', () => {
    const html = '<!--<img src=x onerror=1>-->';
    expect(sanitizeHtml(html)).toBe(html);
  });

  it('drops comments a browser closes early (<!-->, <!--->, --!>) and reads on as a browser does', () => {
    expect(sanitizeHtml('<!--><img src=x onerror=alert(1)>-->')).toBe('<img src=x>-->');
    expect(sanitizeHtml('<!---><img src=x onerror=alert(1)>-->')).toBe('<img src=x>-->');
    expect(sanitizeHtml('<!-- a --!><img src=x onerror=alert(1)> -->')).toBe('<img src=x> -->');
  });

  it('ends a comment at the first -->, even after a nested <!--', () => {
    expect(sanitizeHtml('<!-- <!-- a --><img src=x onerror=1>')).toBe('<!-- <!-- a --><img src=x>');
  });

  it('keeps a comment left open at the end of the input, which hides only what it holds', () => {
    expect(sanitizeHtml('a<!-- b')).toBe('a<!-- b');
    expect(sanitizeHtml('a<!-- <script>alert(1)</script>')).toBe('a<!-- <script>alert(1)</script>');
    // Ended early by --!>, a comment is not open to the end: what follows is sanitised.
    expect(sanitizeHtml('a<!-- b --!><img src=x onerror=alert(1)>')).toBe('a<img src=x>');
    expect(sanitizeHtml('a<!-->')).toBe('a');
  });

  it('ends script content at the first </script followed by space, / or >', () => {
    expect(sanitizeHtml('<script>x</script >after')).toBe('after');
    expect(sanitizeHtml('<script>"</script>"<b>y</b>')).toBe('"<b>y</b>');
    expect(sanitizeHtml('<script>x</scripty></script>z')).toBe('z');
  });

  it('follows the script escape states: <!--<script> hides the next </script>', () => {
    expect(sanitizeHtml('<script><!--<script>x</script>alert(1)</script>after')).toBe('after');
    expect(sanitizeHtml('<script><!-- x --></script>after')).toBe('after');
  });

  it('reads raw-text elements to their end tag, ignoring tags and quotes inside', () => {
    expect(sanitizeHtml('<style><img src=x onerror=alert(1)></style>ok')).toBe('ok');
    expect(sanitizeHtml('<title><a title="</title><img src=x onerror=alert(1)>">')).toBe(
      '&lt;a title="<img src=x>">',
    );
    expect(sanitizeHtml('<xmp><b title="</xmp><img src=x onerror=alert(1)>">')).toBe(
      '&lt;b title="<img src=x>">',
    );
  });

  it('reads noscript content as HTML and drops what that reading finds unsafe', () => {
    expect(sanitizeHtml('<noscript><p title="</noscript><img src=x onerror=alert(1)>">')).toBe(
      '<p>',
    );
  });

  it('removes an end tag written </script > and a tag named scr<script', () => {
    expect(sanitizeHtml('</script >')).toBe('');
    expect(sanitizeHtml('<scr<script>ipt>alert(1)</script>')).toBe('ipt>alert(1)');
  });

  it('reads NUL in names as U+FFFD and drops URLs holding NUL, which some readers strip', () => {
    expect(sanitizeHtml('<scr\0ipt>x</scr\0ipt>')).toBe('x');
    expect(sanitizeHtml('<img src=x on\0error=alert(1)>')).toBe('<img src=x>');
    expect(sanitizeHtml('<a href="java\0script:alert(1)">x</a>')).toBe('<a>x</a>');
    expect(sanitizeHtml('a\0b')).toBe('a\0b');
  });

  it('escapes a text < that would open a tag once what followed it is removed', () => {
    expect(sanitizeHtml('<<script></script>img src=x onerror=alert(1)>')).toBe(
      '&lt;img src=x onerror=alert(1)>',
    );
    expect(sanitizeHtml('<<x>b>')).toBe('&lt;b>');
    expect(sanitizeHtml('<<b>')).toBe('<<b>');
  });

  it('escapes a < or </ at the very end, which could join with HTML appended later', () => {
    expect(sanitizeHtml('a <')).toBe('a &lt;');
    expect(sanitizeHtml('a </')).toBe('a &lt;/');
  });

  it('reads HTML that breaks out of svg or math as a browser does, leaving nothing to run', () => {
    expect(sanitizeHtml('<svg><p><style><g title="</style><img src=x onerror=alert(1)>">')).toBe(
      '<p><img src=x>">',
    );
    expect(sanitizeHtml('<math><mtext><table><mglyph><style><img src=x onerror=1>')).toBe(
      '<table>',
    );
  });
});

describe('sanitizeHtml on random markup', () => {
  const PIECES = [
    ...['<', '>', '</', '/', '/>', '=', '"', "'", '`', ' ', '\n', '\0', '-', '!', '?', '&'],
    ...['&#106;', '&colon;', '&lt;', '&amp', 'a', 'b', 'p', 'img', 'div', 'table', 'td'],
    ...['script', 'style', 'svg', 'math', 'textarea', 'title', 'noscript', 'template', 'xmp'],
    ...['iframe', 'select', 'option', 'mglyph', 'mtext', 'foreignObject', 'desc', 'plaintext'],
    ...['<!--', '-->', '--!>', '<!', '<?', '<![CDATA[', ']]>', 'src=x', 'onerror=alert(1)'],
    ...['href=javascript:alert(1)', 'title=', 'style=', 'url(x)', 'srcset=', '<a', '<img'],
    ...['</script', '</style', '<script', '<style', '<svg', '<math'],
  ];

  it('never lets through what a browser would run, and is stable when run twice', () => {
    const next = seededRandom(20240611);
    for (let n = 0; n < 1000; n++) {
      const length = 1 + Math.floor(next() * 40);
      let input = '';
      for (let k = 0; k < length; k++) input += PIECES[Math.floor(next() * PIECES.length)];
      for (const options of [{}, { markdown: true }]) {
        const out = sanitizeHtml(input, options);
        const label = `${JSON.stringify(input)} ${JSON.stringify(options)}`;
        const doc = parser.parseFromString(out, 'text/html');
        expect(unsafeParts(doc), label).toEqual([]);
        expect(unseenByTokenizer(out, doc), label).toEqual([]);
        expect(sanitizeHtml(out, options), label).toBe(out);
        expect(sanitizeHtml(out), label).toBe(out);
      }
    }
  });
});

describe('sanitizeHtml on hostile input', () => {
  /** Runs `sanitizeHtml` and fails if it takes longer than a linear scan plausibly could. */
  function timed(html: string, options?: SanitizeOptions): string {
    const started = performance.now();
    const out = sanitizeHtml(html, options);
    expect(performance.now() - started).toBeLessThan(3000);
    return out;
  }

  it('passes 2 MB of nested divs through unchanged, quickly', () => {
    const html = '<div>'.repeat(400_000);
    expect(timed(html)).toBe(html);
  });

  it('drops a 1 MB attribute value that never closes, quickly', () => {
    expect(timed(`ok<a title="${'x'.repeat(1_000_000)}`)).toBe('ok');
    expect(timed(`ok<a title="${'<img src=x onerror=alert(1)>'.repeat(40_000)}`)).toBe('ok');
  });

  it('keeps 500 kB tags that CommonMark would not read as tags as text, quickly', () => {
    // Half the size of the tests below: the tokenizer is slower on many attributes.
    const mb = 500_000;
    const markdown = { markdown: true };
    expect(timed(`<b ${'a=b '.repeat(mb / 4)}!>`, markdown)).toBe(
      `&lt;b ${'a=b '.repeat(mb / 4)}!>`,
    );
    expect(timed(`<b ${'a="b"'.repeat(mb / 5)} onclick=x>`, markdown)).toBe(
      `&lt;b ${'a="b"'.repeat(mb / 5)} onclick=x>`,
    );
    expect(timed(`<b${' a \n'.repeat(mb / 4)}`, markdown)).toBe(`&lt;b${' a \n'.repeat(mb / 4)}`);
  });

  it('handles other pathological shapes in linear time', () => {
    const mb = 1_000_000;
    expect(timed(`a<!--${'<!-- -- -!>'.repeat(mb / 10)}`)).toBe(
      `a<!--${'<!-- -- -!>'.repeat(mb / 10)}`,
    );
    expect(timed(`<script>${'<!--<script>'.repeat(mb / 12)}`)).toBe('');
    expect(timed('<'.repeat(mb))).toBe(`${'<'.repeat(mb - 1)}&lt;`);
    expect(timed(`<style>${'</styl'.repeat(mb / 6)}`)).toBe('');
    expect(timed(`<b ${'a '.repeat(mb / 2)}>`)).toBe(`<b ${'a '.repeat(mb / 2)}>`);
    expect(timed(`<a href="${'&amp;'.repeat(mb / 5)}">`)).toBe(
      `<a href="${'&amp;'.repeat(mb / 5)}">`,
    );
    expect(timed(`<span style="${'/*'.repeat(mb / 2)}">`)).toBe('<span>');
    expect(timed(`<span style="${'color:red;'.repeat(mb / 10)}">`)).toBe(
      `<span style="${'color:red;'.repeat(mb / 10)}">`,
    );
    expect(timed(`<img srcset="${','.repeat(mb)}">`)).toBe(`<img srcset="${','.repeat(mb)}">`);
    expect(timed(`<svg>${'<svg>'.repeat(mb / 5)}`)).toBe('');
    expect(timed('</1'.repeat(mb / 3))).toBe('');
  });
});
