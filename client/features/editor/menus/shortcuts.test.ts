// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { formatShortcut, withShortcut } from './shortcuts.ts';

describe('formatShortcut', () => {
  it('uses symbols on a Mac', () => {
    expect(formatShortcut('Mod-b', true)).toBe('⌘B');
    expect(formatShortcut('Mod-Shift-s', true)).toBe('⌘⇧S');
    expect(formatShortcut('Mod-Alt-1', true)).toBe('⌘⌥1');
  });

  it('spells out Ctrl elsewhere', () => {
    expect(formatShortcut('Mod-b', false)).toBe('Ctrl+B');
    expect(formatShortcut('Mod-Shift-s', false)).toBe('Ctrl+Shift+S');
    expect(formatShortcut('Alt-F10', false)).toBe('Alt+F10');
  });
});

describe('withShortcut', () => {
  it('adds the shortcut to the name in parentheses, or leaves the name alone', () => {
    expect(withShortcut('Bold', 'Mod-b', false)).toBe('Bold (Ctrl+B)');
    expect(withShortcut('Text color', undefined, false)).toBe('Text color');
  });
});
