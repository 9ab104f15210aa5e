import {
  type CardListItem,
  CONVERSION_DEBOUNCE_MS,
  cardTopupSchema,
  fieldErrors,
  formatUnits,
  TOPUP_DECIMALS,
  TOPUP_QUICK_PERCENTS,
} from '@exchange/shared';
import { Alert, Button, Group, Modal, Stack, Table, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/toast.ts';
import { useWalletBalances, WALLET_KEYS } from '../wallet/api.ts';
import { CARD_KEYS, cardCalls, useCardDetails, useCardFee, useConversion } from './api.ts';
import { cardCodeText, cardErrorText } from './format.ts';
import {
  acceptTopupInput,
  checkTopup,
  percentOfLoadable,
  type TopupContext,
  type TopupProblem,
  topupErrorText,
  topupProblemText,
  topupUnits,
} from './money.ts';
import { useDebounced } from './useDebounced.ts';

/** The amount as the wire wants it (no trailing dot, no leading zeros), or undefined when it is not positive. */
function normalised(amount: string): string | undefined {
  const value = topupUnits(amount);
  return value > 0n ? formatUnits(value, TOPUP_DECIMALS) : undefined;
}

/**
 * Top up a card from the spot USDT wallet (docs/cards.md#validation, #constants): the amount (at most 6 decimals as typed), quick buttons
 * of 25/50/75/100 % of what can be loaded now (the spot balance less the fee, the day's remaining limit and the
 * room under the load limit, whichever is least), the EUR worth 500 ms after the last key, the fee, the client checks with
 * the spec's messages, the 30-minute note; on success a toast and balances, cards and top-ups are read again.
 */
export function TopupModal({ card, onClose }: { card: CardListItem; onClose: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const balances = useWalletBalances();
  const details = useCardDetails(card.card_number);
  const fee = useCardFee();
  const [amount, setAmount] = useState('');
  const [problem, setProblem] = useState<TopupProblem>();
  const [busy, setBusy] = useState(false);

  const usdt = balances.data ? (balances.data.find((b) => b.currency === 'usdt')?.balance ?? '0') : undefined;
  const settled = useDebounced(normalised(amount), CONVERSION_DEBOUNCE_MS);
  const conversion = useConversion(settled);
  const current = normalised(amount) === settled ? conversion.data : undefined;
  const limits = { load: fee.data?.load_limit, daily: fee.data?.topup_limit };
  const ctx: TopupContext = {
    usdtBalance: usdt,
    feePercent: fee.data?.topup_fee,
    cardBalance: details.data?.usdt_balance ?? card.balance,
    pending: details.data?.pending_topups,
    today: details.data?.total_24h,
    loadLimit: limits.load,
    dailyLimit: limits.daily,
    status: details.data?.status ?? card.status,
  };
  // The quick buttons wait for everything that bounds a top-up: the balance, the fee and limits, the card's sums.
  const feePercent = fee.data?.topup_fee;
  const roomKnown = usdt !== undefined && feePercent !== undefined && details.data !== undefined;

  const edit = (next: string) => {
    setAmount((previous) => acceptTopupInput(next, previous));
    setProblem(undefined);
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const found = checkTopup(amount, ctx);
    if (found) return setProblem(found);
    const parsed = cardTopupSchema.safeParse({
      card_number: card.card_number,
      usdt_amount: normalised(amount),
    });
    if (!parsed.success) {
      const errors = fieldErrors(parsed.error);
      return setProblem({ code: errors.usdt_amount ?? errors.card_number ?? 'server.error' });
    }
    setBusy(true);
    try {
      await cardCalls.topup(parsed.data);
      toast.success(t('card.topup.done'));
      onClose();
      await Promise.all([
        client.invalidateQueries({ queryKey: CARD_KEYS.all }),
        client.invalidateQueries({ queryKey: WALLET_KEYS.balances }),
      ]);
    } catch (err) {
      toast.error(topupErrorText(t, err, limits));
    } finally {
      setBusy(false);
    }
  };

  const eur = !settled
    ? ''
    : current
      ? t('card.topup.eurAmount', { amount: current.eur_amount })
      : conversion.isError
        ? cardErrorText(t, conversion.error)
        : t('card.topup.eurPending');
  const feeText = current?.fee ?? fee.data?.topup_fee;

  return (
    <Modal opened onClose={onClose} centered title={t('card.topup.title', { card: card.card_number })}>
      <form onSubmit={submit} noValidate data-testid="card-topup-modal">
        <Stack>
          {card.status === 'loss' && (
            <Alert color="red" data-testid="card-topup-blocked">
              {cardCodeText(t, 'account.card.blocked')}
            </Alert>
          )}
          <TextInput
            label={t('card.topup.amount')}
            description={usdt !== undefined ? t('card.topup.available', { amount: usdt }) : undefined}
            value={amount}
            inputMode="decimal"
            autoComplete="off"
            onChange={(e) => edit(e.currentTarget.value)}
            error={problem && topupProblemText(t, problem)}
            data-testid="card-topup-amount"
          />
          <Group gap="xs" grow>
            {TOPUP_QUICK_PERCENTS.map((percent) => (
              <Button
                key={percent}
                variant="light"
                size="xs"
                disabled={!roomKnown}
                onClick={() => {
                  if (feePercent === undefined) return;
                  setAmount(percentOfLoadable(ctx, feePercent, percent));
                  setProblem(undefined);
                }}
                data-testid={`card-topup-percent-${percent}`}
              >
                {t('card.topup.percent', { percent })}
              </Button>
            ))}
          </Group>
          <Table withRowBorders={false} verticalSpacing={4}>
            <Table.Tbody>
              <Table.Tr>
                <Table.Th scope="row">{t('card.topup.eur')}</Table.Th>
                <Table.Td ta="right" data-testid="card-topup-eur">
                  {eur}
                </Table.Td>
              </Table.Tr>
              {current?.rate && (
                <Table.Tr>
                  <Table.Td colSpan={2} ta="right">
                    <Text size="xs" c="dimmed" data-testid="card-topup-rate">
                      {t('card.topup.rate', { rate: current.rate })}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )}
              <Table.Tr>
                <Table.Th scope="row">{t('card.topup.fee')}</Table.Th>
                <Table.Td ta="right" data-testid="card-topup-fee">
                  {feeText !== undefined ? t('card.topup.usdt', { amount: feeText }) : ''}
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          {fee.data && (
            <Text size="xs" c="dimmed" data-testid="card-topup-limits">
              {t('card.topup.limits', { load: fee.data.load_limit, daily: fee.data.topup_limit })}
            </Text>
          )}
          <Alert color="blue" data-testid="card-topup-note">
            {t('card.topup.note')}
          </Alert>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('card.topup.cancel')}
            </Button>
            <Button type="submit" loading={busy} data-testid="card-topup-submit">
              {t('card.topup.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
