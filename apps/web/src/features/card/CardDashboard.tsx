import { type CardListItem, MAX_CARDS_PER_USER } from '@exchange/shared';
import { Alert, Button, Grid, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { User } from '../../api/user.ts';
import { ActivateCardForm } from './ActivateCardForm.tsx';
import { AddOnBanner } from './AddOnBanner.tsx';
import { CardActionsMenu } from './CardActionsMenu.tsx';
import { CardCarousel } from './CardCarousel.tsx';
import { CardHistoryTabs } from './CardHistoryTabs.tsx';
import { profileCountry } from './CardLanding.tsx';
import { CardNumber } from './CardNumber.tsx';
import { CardWallet } from './CardWallet.tsx';
import { FeeStep } from './FeeStep.tsx';

/** What the Fee form is paying for: a new (add-on) card, or an unpaid one. */
type Payment = { kind: 'addOn' } | { kind: 'unpaid'; cardNumber: string };

/**
 * The card dashboard (docs/cards.md#screens, #states): the carousel, the chosen card's number, wallet and history, the Pay button
 * of an unpaid card (next_charge_on null), the Activate form of a paid card not yet active, the add-on banner
 * (fewer than 3 cards) and the actions menu.
 */
export function CardDashboard({
  cards,
  user,
  onPaid,
}: {
  cards: CardListItem[];
  user: User;
  onPaid: () => void;
}) {
  const { t } = useTranslation();
  const [index, setIndex] = useState(0);
  const [payment, setPayment] = useState<Payment>();
  const [bannerClosed, setBannerClosed] = useState(false);
  const selected = Math.min(index, cards.length - 1);
  const card = cards[selected];
  if (!card) return null;

  if (payment)
    return (
      <Paper withBorder p="lg" radius="md">
        <Title order={3}>{t(payment.kind === 'addOn' ? 'card.addOn.heading' : 'card.fee.pay')}</Title>
        <FeeStep
          cardNumber={payment.kind === 'unpaid' ? payment.cardNumber : undefined}
          country={profileCountry(user)}
          onPaid={() => {
            setPayment(undefined);
            onPaid();
          }}
          onCancel={() => setPayment(undefined)}
        />
      </Paper>
    );

  const unpaid = card.next_charge_on === null;
  return (
    <Stack data-testid="card-dashboard">
      <Group justify="space-between">
        <Title order={3}>{t('card.dashboard.title')}</Title>
        <Group gap="xs">
          <Button component={Link} to="/view_statement" variant="default" data-testid="card-statement-link">
            {t('card.statement.link')}
          </Button>
          <CardActionsMenu cards={cards} shown={card} />
        </Group>
      </Group>
      {cards.length < MAX_CARDS_PER_USER && !bannerClosed && (
        <AddOnBanner onApply={() => setPayment({ kind: 'addOn' })} onDismiss={() => setBannerClosed(true)} />
      )}
      <Grid>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <Stack>
            <CardCarousel cards={cards} selected={selected} onSelect={setIndex} />
            <CardNumber key={card.card_number} card={card} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <Stack>
            <CardWallet card={card} />
            {unpaid && (
              <Alert color="yellow" data-testid="card-unpaid">
                <Group justify="space-between">
                  <Text size="sm">{t('card.unpaid.body')}</Text>
                  <Button
                    size="xs"
                    onClick={() => setPayment({ kind: 'unpaid', cardNumber: card.card_number })}
                    data-testid="card-pay-unpaid"
                  >
                    {t('card.fee.pay')}
                  </Button>
                </Group>
              </Alert>
            )}
            {!unpaid && card.status === 'unverified' && <ActivateCardForm key={card.card_number} />}
          </Stack>
        </Grid.Col>
      </Grid>
      <CardHistoryTabs key={card.card_number} card={card} />
    </Stack>
  );
}
