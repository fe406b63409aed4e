// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { BLOCKED_LINK_MESSAGE, SPACES_LINK_MESSAGE, parseLinkInput } from './linkUrl.ts';

describe('parseLinkInput', () => {
  it('removes the link when the field is empty or blank', () => {
    expect(parseLinkInput('')).toEqual({ kind: 'remove' });
    expect(parseLinkInput('   ')).toEqual({ kind: 'remove' });
  });

  it('adds https:// to a bare domain', () => {
    expect(parseLinkInput('example.com')).toEqual({ kind: 'apply', href: 'https://example.com' });
    expect(parseLinkInput(' www.example.co.uk/a?b=1#c ')).toEqual({
      kind: 'apply',
      href: 'https://www.example.co.uk/a?b=1#c',
    });
    expect(parseLinkInput('example.com:8080/x')).toEqual({
      kind: 'apply',
      href: 'https://example.com:8080/x',
    });
    expect(parseLinkInput('localhost:3000')).toEqual({
      kind: 'apply',
      href: 'https://localhost:3000',
    });
    expect(parseLinkInput('//cdn.example.com/x')).toEqual({
      kind: 'apply',
      href: 'https://cdn.example.com/x',
    });
  });

  it('turns an e-mail address into a mailto: link', () => {
    expect(parseLinkInput('me@example.com')).toEqual({
      kind: 'apply',
      href: 'mailto:me@example.com',
    });
  });

  it('keeps full URLs, other schemes and relative links as typed', () => {
    for (const href of [
      'https://example.com',
      'http://a.b/c',
      'mailto:x@y.z',
      'tel:+123',
      '/docs',
      '#top',
      './a',
      '../b',
    ]) {
      expect(parseLinkInput(href)).toEqual({ kind: 'apply', href });
    }
  });

  it('rejects javascript:, vbscript:, file: and data: links with the reason in words', () => {
    for (const href of [
      'javascript:alert(1)',
      ' JavaScript:alert(1)',
      'java\tscript:alert(1)',
      'vbscript:msgbox',
      'file:///etc/passwd',
      'data:text/html,<script>alert(1)</script>',
    ]) {
      expect(parseLinkInput(href)).toEqual({ kind: 'invalid', message: BLOCKED_LINK_MESSAGE });
    }
  });

  it('allows data: URLs of the four image types', () => {
    const href = 'data:image/png;base64,iVBORw0KGgo=';
    expect(parseLinkInput(href)).toEqual({ kind: 'apply', href });
  });

  it('rejects an address with spaces inside', () => {
    expect(parseLinkInput('hello world')).toEqual({
      kind: 'invalid',
      message: SPACES_LINK_MESSAGE,
    });
  });
});
