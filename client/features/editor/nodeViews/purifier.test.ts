// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { loadPurifier, purifyToFragment } from './purifier.ts';

async function clean(html: string): Promise<string> {
  const div = document.createElement('div');
  div.append(purifyToFragment(await loadPurifier(), html));
  return div.innerHTML;
}

describe('purifyToFragment', () => {
  it('drops event handlers and scripts', async () => {
    const html = await clean('<img src="a.png" onerror="alert(1)"><script>alert(2)</script>');
    expect(html).toBe('<img src="a.png">');
  });

  it('drops style elements and forms', async () => {
    expect(await clean('<style>body{display:none}</style><b>x</b>')).toBe('<b>x</b>');
    expect(await clean('<form action="/x"><input name="a"></form>')).not.toContain('<form');
  });

  it('drops links and images that break the URL rule', async () => {
    expect(await clean('<a href="javascript:alert(1)">x</a>')).toBe('<a>x</a>');
    expect(await clean('<img src="file:///etc/passwd">')).toBe('<img>');
  });

  it('opens allowed links beside the editor', async () => {
    expect(await clean('<a href="https://example.com">x</a>')).toBe(
      '<a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow">x</a>',
    );
  });

  it('keeps ordinary markup', async () => {
    expect(await clean('<details><summary>More</summary><p>Body</p></details>')).toBe(
      '<details><summary>More</summary><p>Body</p></details>',
    );
  });
});

describe('purifyToFragment on styles', () => {
  it('keeps only the declarations of the shared allow-list', async () => {
    expect(
      await clean('<div style="position: fixed; inset: 0; z-index: 99999; color: red">x</div>'),
    ).toBe('<div style="color: red">x</div>');
    expect(await clean('<span style="transform: scale(50)">x</span>')).toBe('<span>x</span>');
    expect(await clean('<mark style="background-color: #ff0">x</mark>')).toBe(
      '<mark style="background-color: #ff0">x</mark>',
    );
  });

  it('drops attribute values that hold markup', async () => {
    expect(await clean('<b title="</style><script>alert(1)</script>">x</b>')).toBe('<b>x</b>');
  });
});

describe('purifyToFragment on srcset', () => {
  it('keeps a srcset whose candidates all pass the image rule', async () => {
    const html = '<img srcset="a.png 1x, https://example.com/b.png 2x">';
    expect(await clean(html)).toBe(html);
  });

  it('drops a srcset with a candidate that breaks the image rule', async () => {
    expect(await clean('<img srcset="a.png 1x,javascript:alert(1) 2x">')).toBe('<img>');
  });
});
