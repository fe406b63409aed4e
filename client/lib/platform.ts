/** True on Apple platforms, where Mod is ⌘ and shortcuts are written with symbols. */
export function isApplePlatform(
  nav: Pick<Navigator, 'platform' | 'userAgent'> = navigator,
): boolean {
  return /Mac|iPhone|iPad|iPod/.test(nav.platform || nav.userAgent);
}

const APPLE_SYMBOLS: Record<string, string> = {
  Mod: '⌘',
  Shift: '⇧',
  Alt: '⌥',
  Ctrl: '⌃',
};

/**
 * Writes a ProseMirror key name (`Mod-Shift-v`, `Mod-Alt-1`, `Alt-F10`) the way the platform
 * writes shortcuts: `⌘⇧V` on Apple devices, `Ctrl+Shift+V` elsewhere.
 */
export function formatShortcut(keys: string, apple: boolean = isApplePlatform()): string {
  const parts = keys.split('-').map((part) => (part.length === 1 ? part.toUpperCase() : part));
  if (apple) return parts.map((part) => APPLE_SYMBOLS[part] ?? part).join('');
  return parts.map((part) => (part === 'Mod' ? 'Ctrl' : part)).join('+');
}

/** The same shortcut for `aria-keyshortcuts`, which names modifiers as the platform does. */
export function ariaShortcut(keys: string, apple: boolean = isApplePlatform()): string {
  return keys
    .split('-')
    .map((part) => (part === 'Mod' ? (apple ? 'Meta' : 'Control') : part))
    .map((part) => (part.length === 1 ? part.toUpperCase() : part))
    .join('+');
}
