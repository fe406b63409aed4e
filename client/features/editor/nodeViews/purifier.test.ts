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
