import {
  ERRORS,
  formatUnits,
  internalTransferSchema,
  TRANSFER_ERRORS,
  WALLET_ERRORS,
  withdrawMinimum,
} from '@exchange/shared';
import { Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api } from '../../api/client.ts';
import { toast } from '../../app/toast.ts';
import { useSubmitForm } from '../../components/useSchemaForm.ts';
import { AmountWithSlider } from './AmountWithSlider.tsx';
import { type Currency, type Network, WALLET_KEYS } from './api.ts';
import { unitsOf, walletErrorText } from './format.ts';

type Field = 'recipient' | 'amount' | 'password';
const FIELD_OF: Record<string, Field> = {
  [TRANSFER_ERRORS.recipientRequired]: 'recipient',
  [TRANSFER_ERRORS.recipientNotFound]: 'recipient',
  [TRANSFER_ERRORS.selfTransfer]: 'recipient',
  [TRANSFER_ERRORS.passwordRequired]: 'password',
  [TRANSFER_ERRORS.passwordInvalid]: 'password',
  [ERRORS.accountBlocked]: 'password',
  [WALLET_ERRORS.amountRequired]: 'amount',
  [WALLET_ERRORS.amountInvalid]: 'amount',
  [WALLET_ERRORS.insufficientBalance]: 'amount',
  [WALLET_ERRORS.amountTooSmall]: 'amount',
};

interface Props {
  currency: Currency;
  network: Network;
  /** Available balance of the currency, a decimal string. */
  available: string;
}

/**
 * Transfer to another user of the exchange (FAQ): by email, phone number or deposit address, confirmed with the
 * account password. No fee; the minimum withdrawal of the network applies (docs/wallet.md#validation, internal). Checked with the
 * server's schema, the balance and the minimum before anything is sent.
 */
export function TransferPanel({ currency, network, available }: Props) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const precision = currency.precision;
  const unit = currency.id.toUpperCase();
  const minimum = withdrawMinimum(network, precision, true);
  const limits = { min: formatUnits(minimum, precision), currency: unit };
  const [percent, setPercent] = useState(0);
  const initial = {
    currency: currency.id,
    blockchain_key: network.blockchain_key,
    recipient: '',
    amount: '',
    password: '',
  };
  const { form, busy, submit } = useSubmitForm(
    internalTransferSchema,
    initial,
    async (body) => {
      await api('peatio', '/account/internal_transfers', { method: 'POST', body });
      toast.success(t('wallet.transfer.done'));
      form.reset();
      setPercent(0);
      void client.invalidateQueries({ queryKey: WALLET_KEYS.history });
      void client.invalidateQueries({ queryKey: WALLET_KEYS.balances });
    },
    (err, setErrors) => {
      const code = err instanceof ApiError ? err.errors.find((c) => c in FIELD_OF) : undefined;
      const field = code ? FIELD_OF[code] : undefined;
      if (code && field) setErrors({ [field]: code });
      else {
        const text = walletErrorText(t, err, limits);
        if (text) toast.error(text);
      }
    },
  );
  const message = (code: string | undefined) => code && t([code, 'server.error'], limits);
  const amount = unitsOf(String(form.values.amount), precision);

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = internalTransferSchema.safeParse(form.values);
    if (parsed.success && amount > unitsOf(available, precision))
      return form.setErrors({ amount: WALLET_ERRORS.insufficientBalance });
    if (parsed.success && amount < minimum) return form.setErrors({ amount: WALLET_ERRORS.amountTooSmall });
    void submit();
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        <Text size="sm" c="dimmed">
          {t('wallet.transfer.intro', { coin: unit })}
        </Text>
        <TextInput
          label={t('wallet.transfer.recipient')}
          placeholder={t('wallet.transfer.recipientPlaceholder')}
          autoComplete="off"
          value={form.values.recipient}
          onChange={(e) => form.set('recipient', e.currentTarget.value)}
          error={message(form.errors.recipient)}
          data-testid="transfer-recipient"
        />
        <AmountWithSlider
          value={String(form.values.amount)}
          onChange={(amount) => form.set('amount', amount)}
          percent={percent}
          onPercent={setPercent}
          available={available}
          precision={precision}
          unit={unit}
          error={message(form.errors.amount)}
          description={`${t('wallet.withdraw.available', { amount: available, coin: unit })} · ${t('wallet.transfer.minimum', { min: limits.min, coin: unit })}`}
          testId="transfer-amount"
        />
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {t('wallet.transfer.fee')}
          </Text>
          <Text size="sm" data-testid="transfer-fee">{`0 ${unit}`}</Text>
        </Group>
        <PasswordInput
          label={t('wallet.transfer.password')}
          autoComplete="current-password"
          value={form.values.password}
          onChange={(e) => form.set('password', e.currentTarget.value)}
          error={message(form.errors.password)}
          data-testid="transfer-password"
        />
        <Button
          type="submit"
          loading={busy}
          disabled={!network.withdraw_enabled}
          data-testid="transfer-submit"
        >
          {t('wallet.transfer.submit')}
        </Button>
      </Stack>
    </form>
  );
}
