import { CARD_ON_THE_WAY_MS } from '@exchange/shared';
import { Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** After payment: "card on the way", closing by itself after 5 seconds (spec §4, §9). */
export function CardOnTheWayModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  useEffect(() => {
    if (!opened) return;
    const timer = window.setTimeout(onClose, CARD_ON_THE_WAY_MS);
    return () => window.clearTimeout(timer);
  }, [opened, onClose]);
  return (
    <Modal opened={opened} onClose={onClose} centered title={t('card.onTheWay.title')}>
      <Stack align="center" data-testid="card-on-the-way">
        <ThemeIcon size={56} radius="xl" color="teal" variant="light" aria-hidden>
          <Text fz={28}>✈</Text>
        </ThemeIcon>
        <Text ta="center">{t('card.onTheWay.body')}</Text>
      </Stack>
    </Modal>
  );
}
