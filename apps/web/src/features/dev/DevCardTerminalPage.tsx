import {
  Alert,
  Badge,
  Button,
  Container,
  Group,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isLoggedIn, useCurrentUser } from '../../api/user.ts';
import { CARD_KEYS, useCards } from '../card/api.ts';
import { devRequest, readOutcome, type TerminalOutcome } from './devApi.ts';
import { TerminalRefund } from './TerminalRefund.tsx';

/**
 * Developer card terminal (DEV_TOOLS only): pays with one of your own cards at a made-up merchant through
 * `POST /api/v2/dev/card/spend`, and shows the issuer's answer (approved, or declined with its reason) and the
 * trade id, so statements and card balances can be watched moving; an approved purchase can then be refunded.
 */
export function DevCardTerminalPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { data: user } = useCurrentUser();
  const cards = useCards(isLoggedIn(user));
  const [card, setCard] = useState<string | null>(null);
  const [eur, setEur] = useState('10.00');
  const [merchant, setMerchant] = useState('Dev Coffee Shop');
  const [busy, setBusy] = useState(false);
  const [off, setOff] = useState(false);
  const [outcome, setOutcome] = useState<TerminalOutcome>();
  const list = cards.data ?? [];
  const chosen = card ?? list[0]?.card_number ?? null;

  const pay = async () => {
    if (!chosen) return;
    setBusy(true);
    setOutcome(undefined);
    const result = await devRequest('card/spend', {
      card_number: chosen,
      eur: eur.trim(),
      merchant: merchant.trim(),
    });
    if (result?.off) setOff(true);
    else if (result) {
      setOutcome(readOutcome(result.status, result.text));
      await client.invalidateQueries({ queryKey: CARD_KEYS.all });
    }
    setBusy(false);
  };

  return (
    <Container size="sm" py="xl">
      <Stack>
        <Title order={2}>{t('dev.terminal.title')}</Title>
        <Text c="dimmed">{t('dev.terminal.intro')}</Text>
        {off && <Alert color="yellow">{t('dev.inbox.off')}</Alert>}
        {cards.isSuccess && list.length === 0 && <Alert color="yellow">{t('dev.terminal.noCards')}</Alert>}
        {!isLoggedIn(user) && <Alert color="yellow">{t('dev.terminal.noCards')}</Alert>}
        <Paper withBorder p="md">
          <Stack>
            <Select
              label={t('dev.terminal.card')}
              data={list.map((c) => c.card_number)}
              value={chosen}
              onChange={setCard}
              allowDeselect={false}
              data-testid="terminal-card"
            />
            <TextInput
              label={t('dev.terminal.amount')}
              value={eur}
              inputMode="decimal"
              onChange={(e) => setEur(e.currentTarget.value)}
              data-testid="terminal-amount"
            />
            <TextInput
              label={t('dev.terminal.merchant')}
              value={merchant}
              onChange={(e) => setMerchant(e.currentTarget.value)}
              data-testid="terminal-merchant"
            />
            <Button onClick={pay} loading={busy} disabled={!chosen} data-testid="terminal-pay">
              {t('dev.terminal.pay')}
            </Button>
          </Stack>
        </Paper>
        {outcome && (
          <Paper withBorder p="md" data-testid="terminal-result">
            <Stack gap="xs">
              <Group>
                <Badge
                  color={outcome.approved ? 'teal' : 'red'}
                  data-testid="terminal-outcome"
                  data-outcome={outcome.approved ? 'approved' : 'declined'}
                >
                  {t(outcome.approved ? 'dev.terminal.approved' : 'dev.terminal.declined')}
                </Badge>
              </Group>
              {outcome.reason && (
                <Text size="sm">
                  {t('dev.terminal.reason')}: <span data-testid="terminal-reason">{outcome.reason}</span>
                </Text>
              )}
              {outcome.tradeId && (
                <Text size="sm">
                  {t('dev.terminal.tradeId')}: <span data-testid="terminal-trade-id">{outcome.tradeId}</span>
                </Text>
              )}
              {outcome.approved && outcome.tradeId && (
                <TerminalRefund key={outcome.tradeId} tradeId={outcome.tradeId} />
              )}
            </Stack>
          </Paper>
        )}
      </Stack>
    </Container>
  );
}
