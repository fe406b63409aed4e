import { describe, expect, it } from 'vitest';
import { safeReturnTo } from './returnTo.ts';

const PUBLIC_URL = 'https://write.example.com';

describe('safeReturnTo', () => {
  it('keeps a path on this site with its query and fragment', () => {
    expect(safeReturnTo('/d/abc?tab=1#h', PUBLIC_URL)).toBe('/d/abc?tab=1#h');
    expect(safeReturnTo('/settings', PUBLIC_URL)).toBe('/settings');
  });

  it('keeps only the path of an absolute URL on this origin', () => {
    expect(safeReturnTo('https://write.example.com/trash?x=1', PUBLIC_URL)).toBe('/trash?x=1');
  });

  it.each([
    ['a tab that browsers drop', '/\t/evil.example/x'],
    ['a newline that browsers drop', '/\n/evil.example/x'],
    ['a carriage return', '/\r/evil.example/x'],
    ['a leading space before //', ' //evil.example/x'],
    ['leading control characters before //', '\u0000\u001f//evil.example'],
    ['a protocol-relative URL', '//evil.example/x'],
    ['a backslash after the slash', '/\\evil.example'],
    ['two backslashes', '\\\\evil.example'],
    ['a backslash and a slash', '\\/evil.example'],
    ['a dot segment that collapses to //', '/.//evil.example'],
    ['a double slash after this origin', 'https://write.example.com//evil.example'],
    ['another origin', 'https://evil.example/'],
    ['this host over another scheme', 'http://write.example.com/d/1'],
    ['this host on another port', 'https://write.example.com:8443/d/1'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a javascript: URL with a tab', 'java\tscript:alert(1)'],
    ['a data: URL', 'data:text/html,<script>alert(1)</script>'],
    ['an unparsable URL', 'https://[::1'],
    ['a very long value', `/${'a'.repeat(5000)}`],
  ])('sends %s home', (_name, value) => {
    expect(safeReturnTo(value, PUBLIC_URL)).toBe('/');
  });

  it.each([
    ['an encoded tab stays in the path', '/%09/evil', '/%09/evil'],
    ['encoded slashes stay in the path', '/%2F%2Fevil', '/%2F%2Fevil'],
    ['an encoded //, decoded once already, is a relative path', '%2F%2Fevil', '/%2F%2Fevil'],
    ['leading spaces are dropped as browsers do', '   /d/1', '/d/1'],
    ['control characters inside the path are encoded', '/d/\u0001x', '/d/%01x'],
  ])('%s', (_name, value, expected) => {
    const path = safeReturnTo(value, PUBLIC_URL);
    expect(path).toBe(expected);
    expect(new URL(path, PUBLIC_URL).origin).toBe(PUBLIC_URL);
  });

  it('sends empty and missing values home', () => {
    expect(safeReturnTo('', PUBLIC_URL)).toBe('/');
    expect(safeReturnTo(null, PUBLIC_URL)).toBe('/');
    expect(safeReturnTo(undefined, PUBLIC_URL)).toBe('/');
  });

  it('sends home a path that would grow too long once percent-encoded', () => {
    expect(safeReturnTo(`/${'\u00e9'.repeat(1000)}`, PUBLIC_URL)).toBe('/');
  });
});
