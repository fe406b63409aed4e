/** The appearance a writer picks in the menu or in settings. */
export type ThemePreference = 'light' | 'dark' | 'system';

/** The appearance actually shown. */
export type ResolvedTheme = 'light' | 'dark';

/** Where the preference is kept between visits (per browser, not per account). */
export const THEME_STORAGE_KEY = 'inkwell.theme';

/** Every preference, in menu order. */
export const THEME_PREFERENCES: readonly ThemePreference[] = ['light', 'dark', 'system'];

/** Reads a stored value, falling back to `system` for anything unknown or missing. */
export function parseThemePreference(value: unknown): ThemePreference {
  return value === 'light' || value === 'dark' || value === 'system' ? value : 'system';
}

/** The theme to show for a preference, given whether the system asks for dark. */
export function resolveTheme(
  preference: ThemePreference,
  systemPrefersDark: boolean,
): ResolvedTheme {
  if (preference === 'system') return systemPrefersDark ? 'dark' : 'light';
  return preference;
}

/** localStorage throws in some private modes and sandboxed frames: that means "nothing stored". */
function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** The stored preference, or `system`. */
export function readThemePreference(): ThemePreference {
  try {
    return parseThemePreference(storage()?.getItem(THEME_STORAGE_KEY));
  } catch {
    return 'system';
  }
}

/** Stores the preference; a browser that refuses storage keeps it for this visit only. */
export function writeThemePreference(preference: ThemePreference): void {
  try {
    storage()?.setItem(THEME_STORAGE_KEY, preference);
  } catch {
    // Quota or privacy settings: the theme still applies until the page closes.
  }
}

/**
 * Puts the preference on `<html data-theme>`. The style sheet maps `light` and `dark` directly
 * and follows `prefers-color-scheme` for `system`, so no listener is needed to track the system.
 */
export function applyTheme(
  preference: ThemePreference,
  root: HTMLElement = document.documentElement,
): void {
  root.dataset.theme = preference;
}
