import { LIMITS, STORAGE_KEYS } from '@exchange/shared';
import { createTheme, localStorageColorSchemeManager, useMantineColorScheme } from '@mantine/core';

/** Theme choice kept in local storage under `ThemeMode`; default dark. */
export const colorSchemeManager = localStorageColorSchemeManager({ key: STORAGE_KEYS.theme });

export const theme = createTheme({
  primaryColor: 'blue',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  defaultRadius: 'md',
});

/** Switches light/dark with a 1-second transition on every element. */
export function useThemeToggle() {
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const dark = colorScheme !== 'light';
  return {
    dark,
    toggle() {
      const root = document.documentElement;
      root.classList.add('theme-transition');
      setColorScheme(dark ? 'light' : 'dark');
      window.setTimeout(() => root.classList.remove('theme-transition'), LIMITS.themeTransitionMs);
    },
  };
}
