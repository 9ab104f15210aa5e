import { allowedIdTypes, CARD_ERRORS } from '@exchange/shared';
import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { User } from '../../api/user.ts';
import { toast } from '../../app/toast.ts';
import { VerificationRequiredModal } from '../kyc/VerificationRequiredModal.tsx';
import { useCheckDocument } from './api.ts';
import { TradingRulesModal } from './TradingRulesModal.tsx';

/** The country of the user's profile (ISO 3166-1 alpha-2), if any. */
export function profileCountry(user: User): string | undefined {
  const country = user.profiles?.[0]?.country;
  return country ? country.toUpperCase() : undefined;
}

/**
 * The /card landing (docs/cards.md#screens) before any application: "Get started" and the "Trading Rules" modal. A user below
 * level 3 (or without a profile country) gets the verification-required prompt; a user of a blocked country is
 * told "You are not allowed to apply for card" (check_document, or the shared rule before level 3).
 */
export function CardLanding({
  user,
  verified,
  onStart,
}: {
  user: User;
  verified: boolean;
  onStart: () => void;
}) {
  const { t } = useTranslation();
  const [rules, setRules] = useState(false);
  const [prompt, setPrompt] = useState(false);
  const country = profileCountry(user);
  const check = useCheckDocument(country, verified);
  const allowed = check.data ? check.data.allowed : !country || allowedIdTypes(country).length > 0;

  const start = () => {
    if (!verified || !country) return setPrompt(true);
    if (!allowed) return toast.error(t(CARD_ERRORS.countryNotAllowed));
    onStart();
  };

  return (
    <Paper withBorder p="xl" radius="md" data-testid="card-landing">
      <Stack>
        <Title order={3}>{t('card.landing.headline')}</Title>
        <Text c="dimmed">{t('card.landing.body')}</Text>
        {!allowed && (
          <Alert color="red" data-testid="card-country-blocked">
            {t(CARD_ERRORS.countryNotAllowed)}
          </Alert>
        )}
        <Group>
          <Button
            onClick={start}
            disabled={!allowed}
            loading={verified && check.isLoading}
            data-testid="card-get-started"
          >
            {t('card.landing.getStarted')}
          </Button>
          <Button variant="default" onClick={() => setRules(true)} data-testid="card-rules">
            {t('card.landing.rules')}
          </Button>
        </Group>
      </Stack>
      <TradingRulesModal opened={rules} onClose={() => setRules(false)} />
      <VerificationRequiredModal user={user} opened={prompt} onClose={() => setPrompt(false)} />
    </Paper>
  );
}
