import { describe, expect, it } from 'vitest';
import { PageFiles } from './pageUrls.ts';
import { pageRawHtml } from './rawHtml.ts';

const TOKEN = 'T'.repeat(43);
const FILE = '0b3f0b9e-5c1a-4d2e-8f00-0123456789ab';
const page = (html: string) => pageRawHtml(html, new PageFiles(TOKEN));

describe('pageRawHtml', () => {
  it('closes what a node left open, in order', () => {
    expect(page('<div><b>bold <i>both')).toBe('<div><b>bold <i>both</i></b></div>');
    expect(page('<details><summary>More</summary>text')).toBe(
      '<details><summary>More</summary>text</details>',
    );
  });

  it('drops end tags of elements the node did not open', () => {
    expect(page('</div></article></main>after')).toBe('after');
    expect(page('<p>one</div>two</p>')).toBe('<p>onetwo</p>');
  });

  it('closes the elements inside one whose end tag comes first', () => {
    expect(page('<b><i>x</b>y')).toBe('<b><i>x</i></b>y');
  });

  it('leaves out comments, one the node ends inside above all', () => {
    expect(page('a<!-- note -->b')).toBe('ab');
    expect(page('a<!-- to the end')).toBe('a');
  });

  it('serves uploaded images under the page’s address, and loads no relative image', () => {
    const files = new PageFiles(TOKEN);
    expect(pageRawHtml(`<img src="/files/${FILE}" alt="x"><img src="logo.png">`, files)).toBe(
      `<img src="/p/${TOKEN}/files/${FILE}" alt="x"><img>`,
    );
    expect([...files.ids]).toEqual([FILE]);
  });

  it('gives links the page’s rel, without target or class', () => {
    expect(page('<a href="https://example.com" target="_blank" rel="opener" class="x">x</a>')).toBe(
      '<a href="https://example.com" rel="noopener noreferrer nofollow ugc">x</a>',
    );
  });

  it('keeps void elements and plain attributes as written', () => {
    expect(page('<p align="center">a<br>b<img src="https://e.com/i.png" width=20></p>')).toBe(
      '<p align="center">a<br>b<img src="https://e.com/i.png" width=20></p>',
    );
  });
});
