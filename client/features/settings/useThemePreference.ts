import { useCallback, useEffect, useState } from 'react';
import {
  applyTheme,
  readThemePreference,
  THEME_STORAGE_KEY,
  parseThemePreference,
  writeThemePreference,
  type ThemePreference,
} from '../../lib/theme.ts';

/**
 * The writer's theme preference and a setter that applies and stores it. A change made in
 * another tab follows here through the `storage` event.
 */
export function useThemePreference(): [ThemePreference, (preference: ThemePreference) => void] {
  const [preference, setPreference] = useState<ThemePreference>(readThemePreference);

  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key !== THEME_STORAGE_KEY) return;
      const next = parseThemePreference(event.newValue);
      applyTheme(next);
      setPreference(next);
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  const choose = useCallback((next: ThemePreference) => {
    applyTheme(next);
    writeThemePreference(next);
    setPreference(next);
  }, []);

  return [preference, choose];
}
