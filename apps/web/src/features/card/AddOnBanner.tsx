import { Button, CloseButton, Group, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The dismissible invitation to an add-on card, shown while the user holds fewer than 3 (docs/cards.md#screens, #permissions). */
export function AddOnBanner({ onApply, onDismiss }: { onApply: () => void; onDismiss: () => void }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" radius="md" bg="var(--mantine-color-blue-light)" data-testid="card-addon-banner">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={4}>
          <Text fw={600}>{t('card.addOn.title')}</Text>
          <Text size="sm">{t('card.addOn.body')}</Text>
          <Button size="xs" w="fit-content" mt="xs" onClick={onApply} data-testid="card-addon-apply">
            {t('card.addOn.apply')}
          </Button>
        </Stack>
        <CloseButton
          onClick={onDismiss}
          aria-label={t('card.addOn.dismiss')}
          data-testid="card-addon-dismiss"
        />
      </Group>
    </Paper>
  );
}
