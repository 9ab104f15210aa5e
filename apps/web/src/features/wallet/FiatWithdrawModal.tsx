import { fiatWithdrawSchema, SANCTIONS_ERRORS, WALLET_ERRORS } from '@exchange/shared';
import { Alert, Button, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { toast } from '../../app/toast.ts';
import { CodeInput } from '../../components/CodeInput.tsx';
import { useSubmitForm } from '../../components/useSchemaForm.ts';
import { useWithdrawPermission, WALLET_KEYS } from './api.ts';
import { walletErrorCode } from './format.ts';

/** The field a refusal is shown under; the rest (the code, permission, server errors) go under the code. */
const FIELD_OF: Record<string, 'amount' | 'iban' | 'holder'> = {
  [WALLET_ERRORS.amountRequired]: 'amount',
  [WALLET_ERRORS.amountInvalid]: 'amount',
  [WALLET_ERRORS.insufficientBalance]: 'amount',
  [WALLET_ERRORS.ibanInvalid]: 'iban',
  [WALLET_ERRORS.holderRequired]: 'holder',
};

interface FiatAnswer {
  returnType: 'FINISHED' | 'PROCESSING' | 'ERROR';
}

/**
 * A bank transfer of a fiat balance (EUR) to the user's IBAN, confirmed with the authenticator code. FINISHED
 * refreshes the balances; ERROR says "Fiat Withdraw Failed" (docs/wallet.md#states, #errors).
 */
export function FiatWithdrawModal({
  currency,
  available,
  onClose,
}: {
  currency: string;
  available: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { data: permission } = useWithdrawPermission();
  const { form, busy, submit } = useSubmitForm(
    fiatWithdrawSchema,
    { currency, amount: '', iban: '', holder: '', otp: '' },
    async (body) => {
      const answer = await api<FiatAnswer>('peatio', '/account/fiats/withdraws', { method: 'POST', body });
      await client.invalidateQueries({ queryKey: WALLET_KEYS.balances });
      if (answer.returnType === 'ERROR') toast.error(t('wallet.fiat.failed'));
      else toast.success(t(answer.returnType === 'FINISHED' ? 'wallet.fiat.done' : 'wallet.fiat.processing'));
      onClose();
    },
    (err, setErrors) => {
      const code = walletErrorCode(err) || 'wallet.fiat.notPermitted';
      setErrors({ [FIELD_OF[code] ?? 'otp']: code });
    },
  );
  const error = (field: keyof typeof form.errors) =>
    form.errors[field] && t([form.errors[field], 'server.error']);
  return (
    <Modal
      opened
      onClose={onClose}
      centered
      title={t('wallet.fiat.title', { currency: currency.toUpperCase() })}
    >
      {permission && !permission.allowed ? (
        <Alert color="yellow" data-testid="fiat-not-permitted">
          {t(
            permission.reason === SANCTIONS_ERRORS.frozen
              ? SANCTIONS_ERRORS.frozen
              : 'wallet.fiat.notPermitted',
          )}
        </Alert>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            <Text size="sm" c="dimmed">
              {t('wallet.fiat.available', { amount: available, currency: currency.toUpperCase() })}
            </Text>
            <TextInput
              label={t('wallet.fiat.holder')}
              value={form.values.holder}
              onChange={(e) => form.set('holder', e.currentTarget.value)}
              error={error('holder')}
              data-testid="fiat-holder"
            />
            <TextInput
              label={t('wallet.fiat.iban')}
              value={form.values.iban}
              onChange={(e) => form.set('iban', e.currentTarget.value)}
              error={error('iban')}
              data-testid="fiat-iban"
            />
            <TextInput
              label={t('wallet.fiat.amount')}
              value={form.values.amount}
              onChange={(e) => form.set('amount', e.currentTarget.value.replace(/^\./, '0.'))}
              error={error('amount')}
              maxLength={10}
              data-testid="fiat-amount"
            />
            <CodeInput
              label={t('wallet.fiat.otp')}
              length={6}
              value={form.values.otp}
              onChange={(v) => form.set('otp', v)}
              error={error('otp')}
              testId="fiat-otp"
            />
            <Button type="submit" loading={busy} data-testid="fiat-submit">
              {t('wallet.fiat.submit')}
            </Button>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
