import { CARD_ERRORS, type CardListItem } from '@exchange/shared';
import { Button, Group, Loader, Paper, SimpleGrid, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Amount } from '../../components/format.tsx';
import { useCardDetails } from './api.ts';
import { cardCodeText, cardErrorText, cardStatusColor, cardStatusKey } from './format.ts';
import { LabelledValue } from './LabelledValue.tsx';
import { TopupModal } from './TopupModal.tsx';

/**
 * The card wallet from card_details (docs/cards.md#data): balances, today's top-ups, expiry and status; the Top up button of
 * a paid, activated card. On a blocked card the button is disabled and says why beside it ("Your card is
 * blocked", docs/cards.md#validation), instead of refusing only inside the dialog.
 */
export function CardWallet({ card }: { card: CardListItem }) {
  const { t } = useTranslation();
  const details = useCardDetails(card.card_number);
  const [topup, setTopup] = useState(false);
  const data = details.data;
  const canTopup = card.next_charge_on !== null && (card.status === 'normal' || card.status === 'loss');
  const blocked = (data?.status ?? card.status) === 'loss';
  return (
    <Paper withBorder p="md" radius="md" data-testid="card-wallet">
      <Group justify="space-between" mb="sm">
        <Title order={4}>{t('card.wallet.title')}</Title>
        {canTopup && (
          <Group gap="xs">
            {blocked && (
              <Text
                size="xs"
                c="red"
                id={`card-topup-blocked-${card.id}`}
                data-testid="card-topup-blocked-note"
              >
                {cardCodeText(t, CARD_ERRORS.cardBlocked)}
              </Text>
            )}
            <Button
              size="xs"
              disabled={blocked}
              aria-describedby={blocked ? `card-topup-blocked-${card.id}` : undefined}
              onClick={() => setTopup(true)}
              data-testid="card-topup-open"
            >
              {t('card.topup.open')}
            </Button>
          </Group>
        )}
      </Group>
      {topup && <TopupModal card={card} onClose={() => setTopup(false)} />}
      {details.isPending && <Loader size="sm" aria-label={t('card.wallet.title')} />}
      {details.isError && (
        <Text c="red" size="sm" role="alert">
          {cardErrorText(t, details.error)}
        </Text>
      )}
      {data && (
        <SimpleGrid cols={{ base: 2, sm: 3 }}>
          <LabelledValue label={t('card.wallet.balance')} testId="card-wallet-balance">
            <Amount value={data.balance} />
          </LabelledValue>
          <LabelledValue label={t('card.wallet.usdt')} testId="card-wallet-usdt">
            <Amount value={data.usdt_balance} />
          </LabelledValue>
          <LabelledValue label={t('card.wallet.eur')} testId="card-wallet-eur">
            <Amount value={data.eur_balance} />
          </LabelledValue>
          <LabelledValue label={t('card.wallet.today')} testId="card-wallet-today">
            <Amount value={data.total_24h} />
          </LabelledValue>
          <LabelledValue label={t('card.wallet.expiry')} testId="card-wallet-expiry">
            {data.expiry_date}
          </LabelledValue>
          <LabelledValue label={t('card.wallet.status')} testId="card-wallet-status">
            <Text span inherit c={cardStatusColor(data.status)}>
              {t(cardStatusKey(data.status))}
            </Text>
          </LabelledValue>
          {card.next_charge_on && (
            <LabelledValue label={t('card.wallet.nextCharge')} testId="card-wallet-next-charge">
              {card.next_charge_on}
            </LabelledValue>
          )}
        </SimpleGrid>
      )}
    </Paper>
  );
}
