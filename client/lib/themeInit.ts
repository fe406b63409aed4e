import { applyTheme, readThemePreference } from './theme.ts';

// Imported first by main.tsx so the stored theme is on <html> before React renders anything.
applyTheme(readThemePreference());
