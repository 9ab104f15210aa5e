import { LIMITS } from '@exchange/shared';
import { notifications } from '@mantine/notifications';
import i18next from 'i18next';

/**
 * Shows one toast at a time, top right, for 2 seconds (docs/accounts.md#screens, docs/trading.md#errors): a new toast replaces
 * the one on screen at once, rather than waiting behind it or sliding in while it slides out.
 */
export const toast = {
  success: (message: string) => show(message, 'teal'),
  error: (message: string) => show(message, 'red'),
};

function show(message: string, color: string): void {
  notifications.clean();
  notifications.show({
    message,
    color,
    autoClose: LIMITS.toastDurationMs,
    withCloseButton: true,
    closeButtonProps: { 'aria-label': i18next.t('common.close') },
  });
}
