import { LIMITS, STORAGE_KEYS } from '@exchange/shared';
import {
  createTheme,
  localStorageColorSchemeManager,
  Modal,
  Pagination,
  useMantineColorScheme,
} from '@mantine/core';
import i18next from 'i18next';
// The catalogue is loaded (synchronously) before the theme reads the close button's name from it.
import '../i18n/index.ts';

/** Theme choice kept in local storage under `ThemeMode`; default dark. */
export const colorSchemeManager = localStorageColorSchemeManager({ key: STORAGE_KEYS.theme });

export const theme = createTheme({
  primaryColor: 'blue',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  defaultRadius: 'md',
  // Mantine's own transitions and animations stop for users who ask for reduced motion (WCAG 2.3.3).
  respectReducedMotion: true,
  components: {
    // Every dialog's × button is announced by name (WCAG 4.1.2); Mantine traps the focus and returns it on close.
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': i18next.t('common.close') } } }),
    // The arrow buttons of every pager say where they go (the page buttons show their number).
    Pagination: Pagination.extend({
      defaultProps: { getControlProps: (control) => ({ 'aria-label': i18next.t(`pagination.${control}`) }) },
    }),
  },
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
