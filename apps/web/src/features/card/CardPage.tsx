import { CARD_ERRORS } from '@exchange/shared';
import { Alert, Button, Container, Loader, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { useCurrentUser } from '../../api/user.ts';
import { VERIFICATION_PROMPT } from '../kyc/VerificationRequiredModal.tsx';
import { WALLET_KEYS } from '../wallet/api.ts';
import { CARD_KEYS, useCardholder, useCards } from './api.ts';
import { CardDashboard } from './CardDashboard.tsx';
import { CardLanding } from './CardLanding.tsx';
import { CardOnTheWayModal } from './CardOnTheWayModal.tsx';
import { CardWizard } from './CardWizard.tsx';
import { cardErrorCode, cardErrorText } from './format.ts';

/** Level needed to apply for a card (docs/cards.md#permissions). */
export const CARD_LEVEL = 3;

/**
 * `/card` (docs/cards.md#screens): a user below level 3 is sent to settings with the verification prompt (docs/cards.md#permissions); with
 * cards, the dashboard; with a card holder (or after Get started), the four-step wizard at the step its state
 * calls for; otherwise the landing. After a payment the "card on the way" dialog
 * shows for 5 seconds, whichever screen is behind it; on close the page's heading takes the focus (the Pay button
 * that opened it has usually gone with the wizard).
 */
export function CardPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { data: user } = useCurrentUser();
  const verified = (user?.level ?? 0) >= CARD_LEVEL;
  const cards = useCards(verified);
  const holder = useCardholder(verified);
  const [started, setStarted] = useState(false);
  const [onTheWay, setOnTheWay] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);

  const paid = () => {
    setOnTheWay(true);
    void client.invalidateQueries({ queryKey: CARD_KEYS.all });
    void client.invalidateQueries({ queryKey: WALLET_KEYS.balances });
  };

  // A level refused by the server (the user's level changed since it loaded) is the landing's prompt.
  const failure = [cards.error, holder.error].find(
    (err) => err && cardErrorCode(err) !== CARD_ERRORS.levelRequired,
  );
  // docs/cards.md#permissions: lower levels are redirected to settings and prompted there (not shown Get started first).
  if (user && !verified) return <Navigate to="/settings" replace state={VERIFICATION_PROMPT} />;
  let content: React.ReactNode;
  if (!user) content = null;
  else if (verified && (cards.isPending || holder.isPending))
    content = <Loader aria-label={t('card.landing.loading')} />;
  else if (failure)
    content = (
      <Alert color="red" data-testid="card-load-error">
        <Stack gap="xs">
          <Text size="sm">{cardErrorText(t, failure)}</Text>
          <Button
            size="xs"
            variant="light"
            w="fit-content"
            onClick={() => void client.invalidateQueries({ queryKey: CARD_KEYS.all })}
          >
            {t('card.load.retry')}
          </Button>
        </Stack>
      </Alert>
    );
  else if (verified && cards.data && cards.data.length > 0)
    content = <CardDashboard cards={cards.data} user={user} onPaid={paid} />;
  else if (verified && (holder.data || started))
    content = <CardWizard holder={holder.data ?? null} user={user} onPaid={paid} />;
  else content = <CardLanding user={user} verified={verified} onStart={() => setStarted(true)} />;

  return (
    <Container size="lg" py="xl">
      <Stack>
        <Title order={2} ref={heading} tabIndex={-1} style={{ outline: 'none' }} data-testid="card-title">
          {t('card.title')}
        </Title>
        {content}
      </Stack>
      <CardOnTheWayModal
        opened={onTheWay}
        onClose={() => setOnTheWay(false)}
        onReturnFocus={() => heading.current?.focus()}
      />
    </Container>
  );
}
