import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { attrValue } from './decode.ts';
import { HtmlTokenizer, type HtmlToken } from './tokenize.ts';

/** The part of jsdom used here (it ships no types). */
interface Jsdom {
  JSDOM: new (html: string) => { window: { DOMParser: typeof DOMParser } };
}

const { JSDOM } = createRequire(import.meta.url)('jsdom') as Jsdom;
const parser = new new JSDOM('').window.DOMParser();

function tokens(html: string, foreign = false): HtmlToken[] {
  const tokenizer = new HtmlTokenizer(html);
  tokenizer.foreign = foreign;
  const all: HtmlToken[] = [];
  for (let token = tokenizer.next(); token; token = tokenizer.next()) all.push(token);
  return all;
}

/** Each token as `type:source`, for compact expectations. */
function spans(html: string, foreign = false): string[] {
  return tokens(html, foreign).map((t) => `${t.type}:${html.slice(t.start, t.end)}`);
}

describe('HtmlTokenizer', () => {
  it('splits text, tags and comments with their source offsets', () => {
    expect(spans('a<b class="x">c</b><!-- d -->e')).toEqual([
      'text:a',
      'tag:<b class="x">',
      'text:c',
      'tag:</b>',
      'comment:<!-- d -->',
      'text:e',
    ]);
  });

  it('keeps a < that cannot open markup inside the text', () => {
    expect(spans('1 < 2 <3 <<b>')).toEqual(['text:1 < 2 <3 <', 'tag:<b>']);
    expect(spans('a </')).toEqual(['text:a </']);
  });

  it('reads bogus comments, doctypes and </> as other', () => {
    expect(spans('<!x><?y><!DOCTYPE html></ z></>')).toEqual([
      'other:<!x>',
      'other:<?y>',
      'other:<!DOCTYPE html>',
      'other:</ z>',
      'other:</>',
    ]);
  });

  it('ends comments where browsers do', () => {
    expect(spans('<!---->x<!-- a -- b --->')).toEqual([
      'comment:<!---->',
      'text:x',
      'comment:<!-- a -- b --->',
    ]);
    expect(spans('<!-->a<!--->b<!-- c --!>d<!-- e')).toEqual([
      'other:<!-->',
      'text:a',
      'other:<!--->',
      'text:b',
      'other:<!-- c --!>',
      'text:d',
      'other:<!-- e',
    ]);
  });

  it('reads the content of raw-text elements as one token up to their end tag', () => {
    expect(spans('<style>a</b></style >x')).toEqual([
      'tag:<style>',
      'rawtext:a</b>',
      'tag:</style >',
      'text:x',
    ]);
    expect(spans('<textarea>a</textareax></TEXTAREA>')).toEqual([
      'tag:<textarea>',
      'rawtext:a</textareax>',
      'tag:</TEXTAREA>',
    ]);
    expect(spans('<plaintext></plaintext>')).toEqual(['tag:<plaintext>', 'rawtext:</plaintext>']);
  });

  it('follows the script data escape states', () => {
    expect(spans('<script><!--<script></script>x</script>')).toEqual([
      'tag:<script>',
      'rawtext:<!--<script></script>x',
      'tag:</script>',
    ]);
    expect(spans('<script><!--<script>--></script>')).toEqual([
      'tag:<script>',
      'rawtext:<!--<script>-->',
      'tag:</script>',
    ]);
    expect(spans('<script><!-- --><script></script>')).toEqual([
      'tag:<script>',
      'rawtext:<!-- --><script>',
      'tag:</script>',
    ]);
  });

  it('in foreign content, reads CDATA sections and does not switch to raw text', () => {
    expect(spans('<style><![CDATA[</style>]]>', true)).toEqual([
      'tag:<style>',
      'other:<![CDATA[</style>]]>',
    ]);
    expect(spans('<![CDATA[x]]>')).toEqual(['other:<![CDATA[x]]>']);
  });

  it('drops a tag cut off by the end of the input', () => {
    expect(spans('a<b title="x>')).toEqual(['text:a', 'other:<b title="x>']);
    expect(spans('a<b c')).toEqual(['text:a', 'other:<b c']);
  });

  it('agrees with a browser on every element and attribute of random markup', () => {
    const pieces = [
      ...['<', '>', '</', '/', '/>', '=', '"', "'", '`', ' ', '\n', '\r', '\t', '\0', '-'],
      ...['!', '?', '&', '&#106', '&#x6a;', '&colon;', '&lt', '&amp', '&notit;', 'a', 'b'],
      ...['img', 'div', 'script', 'style', 'textarea', 'title', 'xmp', 'plaintext', '<!--'],
      ...['-->', '--!>', '<!-', '<!', '<?', 'DOCTYPE', 'src=x', 'onerror=alert(1)', '<a'],
      ...['<img', '</script', '</style', '<script', '<style', '</title', '<!--<script>'],
      ...['SCRIPT', '</SCRIPT>', '<textarea>', 'x=y', ' a="b"', "'c'", 'title='],
    ];
    let seed = 42;
    const next = (): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x80000000;
    };
    for (let n = 0; n < 1000; n++) {
      let html = '';
      for (let k = 1 + Math.floor(next() * 30); k > 0; k--) {
        html += pieces[Math.floor(next() * pieces.length)];
      }
      const ours = new Set<string>();
      for (const token of tokens(html)) {
        if (token.type !== 'tag' || token.closing) continue;
        const attrs = new Map<string, string>();
        for (const attr of token.attrs) {
          if (!attrs.has(attr.name)) attrs.set(attr.name, attrValue(html, attr));
        }
        ours.add(`${token.name}${JSON.stringify([...attrs])}`);
      }
      const doc = parser.parseFromString(html, 'text/html');
      // html and body merge the attributes of repeated tags; every other element is one tag.
      const unseen = [...doc.querySelectorAll(':not(html, body)')]
        .map(
          (e) => `${e.localName}${JSON.stringify([...e.attributes].map((a) => [a.name, a.value]))}`,
        )
        .filter((signature) => !ours.has(signature) && !signature.endsWith('[]'));
      expect(unseen, JSON.stringify(html)).toEqual([]);
    }
  });
});

describe('HtmlTokenizer.readContentAsHtml', () => {
  it('reads the content of the raw-text element just opened as HTML', () => {
    const html = '<noscript><b>x</b></noscript>';
    const tokenizer = new HtmlTokenizer(html);
    const seen: string[] = [];
    for (let token = tokenizer.next(); token; token = tokenizer.next()) {
      seen.push(`${token.type}:${html.slice(token.start, token.end)}`);
      if (token.type === 'tag' && token.name === 'noscript' && !token.closing) {
        tokenizer.readContentAsHtml();
      }
    }
    expect(seen).toEqual(['tag:<noscript>', 'tag:<b>', 'text:x', 'tag:</b>', 'tag:</noscript>']);
    expect(spans(html)).toEqual(['tag:<noscript>', 'rawtext:<b>x</b>', 'tag:</noscript>']);
  });
});
