import { LIMITS, STORAGE_KEYS } from '@exchange/shared';
import { createTheme, localStorageColorSchemeManager, useMantineColorScheme } from '@mantine/core';

/** Theme choice kept in local storage under `ThemeMode`; default dark. */
export const colorSchemeManager = localStorageColorSchemeManager({ key: STORAGE_KEYS.theme });

export const theme = createTheme({
  primaryColor: 'blue',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  defaultRadius: 'md',
  // Mantine's own transitions and animations stop for users who ask for reduced motion (WCAG 2.3.3).
  respectReducedMotion: true,
});

/** Whether the user asked the system for reduced motion. */
export function prefersReducedMotion(): boolean {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** Switches light/dark with a 1-second transition on every element (none when reduced motion is asked for). */
export function useThemeToggle() {
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const dark = colorScheme !== 'light';
  return {
    dark,
    toggle() {
      const root = document.documentElement;
      if (prefersReducedMotion()) {
        setColorScheme(dark ? 'light' : 'dark');
        return;
      }
      root.classList.add('theme-transition');
      setColorScheme(dark ? 'light' : 'dark');
      window.setTimeout(() => root.classList.remove('theme-transition'), LIMITS.themeTransitionMs);
    },
  };
}
