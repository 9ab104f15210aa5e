import type { CardListItem } from '@exchange/shared';
import { Button, Group, Loader, Paper, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCardReveal } from './api.ts';
import { cardErrorText, groupCardNumber } from './format.ts';

/** The chosen card's number, masked; "Show number" asks the server for the full number (owner only). */
export function CardNumber({ card }: { card: CardListItem }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  const reveal = useCardReveal(card.card_number, shown);
  const full = shown ? reveal.data?.card_number : undefined;
  return (
    <Paper withBorder p="sm" radius="md">
      <Group justify="space-between" wrap="nowrap">
        <Text ff="monospace" data-testid="card-number">
          {groupCardNumber(full ?? card.card_number)}
        </Text>
        <Group gap="xs" wrap="nowrap">
          {shown && reveal.isFetching && <Loader size="xs" aria-label={t('card.face.showNumber')} />}
          <Button
            size="xs"
            variant="subtle"
            aria-pressed={shown}
            onClick={() => setShown((s) => !s)}
            data-testid="card-show-number"
          >
            {t(shown ? 'card.face.hideNumber' : 'card.face.showNumber')}
          </Button>
        </Group>
      </Group>
      {shown && reveal.isError && (
        <Text c="red" size="xs" role="alert">
          {cardErrorText(t, reveal.error)}
        </Text>
      )}
    </Paper>
  );
}
