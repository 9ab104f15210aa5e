import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * Shown instead of the decision buttons on an item that concerns the signed-in staff member's own account: the
 * server refuses such a decision (`admin.user.own_account`), so the console does not offer it.
 */
export function OwnAccountNote() {
  const { t } = useTranslation();
  return (
    <Text size="sm" c="dimmed" data-testid="admin-own-account">
      {t('admin.ownAccount')}
    </Text>
  );
}
