import type { CardListItem } from '@exchange/shared';
import { Badge, Box, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { cardStatusColor, cardStatusKey, groupCardNumber } from './format.ts';

/** A card as drawn in the carousel: masked number, expiry, status label, fee or shipping state. */
export function CardFace({ card, number }: { card: CardListItem; number?: string }) {
  const { t } = useTranslation();
  return (
    <Box
      p="md"
      style={{
        aspectRatio: '1.586',
        borderRadius: 14,
        color: 'white',
        background: 'linear-gradient(135deg, var(--mantine-color-blue-9), var(--mantine-color-grape-8))',
        display: 'flex',
      }}
    >
      <Stack justify="space-between" style={{ flex: 1 }}>
        <Group justify="space-between">
          <Text fw={700} size="sm">
            EUR · USDT
          </Text>
          <Badge color={cardStatusColor(card.status)} variant="filled" data-testid="card-status">
            {t(cardStatusKey(card.status))}
          </Badge>
        </Group>
        <Text ff="monospace" fz="lg" style={{ letterSpacing: 2 }} data-testid="card-face-number">
          {groupCardNumber(number ?? card.card_number)}
        </Text>
        <Group justify="space-between">
          <Stack gap={0}>
            <Text size="xs" opacity={0.8}>
              {t('card.face.expiry')}
            </Text>
            <Text size="sm">{card.expiry_date}</Text>
          </Stack>
          {card.next_charge_on === null ? (
            <Badge color="yellow" variant="light">
              {t('card.face.unpaid')}
            </Badge>
          ) : (
            card.fulfillment_status && (
              <Badge color="gray" variant="light">
                {t(`card.face.fulfillment.${card.fulfillment_status}`)}
              </Badge>
            )
          )}
        </Group>
      </Stack>
    </Box>
  );
}
