import { describe, expect, it } from 'vitest';
import { ariaShortcut, formatShortcut, isApplePlatform } from './platform.ts';

describe('formatShortcut', () => {
  it('writes Ctrl and plus signs outside Apple platforms', () => {
    expect(formatShortcut('Mod-Shift-v', false)).toBe('Ctrl+Shift+V');
    expect(formatShortcut('Alt-F10', false)).toBe('Alt+F10');
    expect(formatShortcut('Mod-/', false)).toBe('Ctrl+/');
  });

  it('writes symbols on Apple platforms', () => {
    expect(formatShortcut('Mod-Alt-1', true)).toBe('⌘⌥1');
    expect(formatShortcut('Mod-Shift-z', true)).toBe('⌘⇧Z');
  });

  it('names modifiers for aria-keyshortcuts', () => {
    expect(ariaShortcut('Mod-Shift-v', false)).toBe('Control+Shift+V');
    expect(ariaShortcut('Mod-/', true)).toBe('Meta+/');
  });

  it('detects Apple platforms from the navigator', () => {
    expect(isApplePlatform({ platform: 'MacIntel', userAgent: '' })).toBe(true);
    expect(isApplePlatform({ platform: 'Linux x86_64', userAgent: '' })).toBe(false);
  });
});
