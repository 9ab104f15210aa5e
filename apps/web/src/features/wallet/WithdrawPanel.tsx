import {
  amountReceived,
  ERRORS,
  fieldErrors,
  formatUnits,
  PIN_LENGTH,
  WALLET_ERRORS,
  withdrawMinimum,
  withdrawSchema,
} from '@exchange/shared';
import { Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api } from '../../api/client.ts';
import { toast } from '../../app/toast.ts';
import { CodeInput } from '../../components/CodeInput.tsx';
import { useSubmitForm } from '../../components/useSchemaForm.ts';
import { AmountWithSlider } from './AmountWithSlider.tsx';
import { type Currency, type Network, useBeneficiaries, WALLET_KEYS } from './api.ts';
import { BeneficiaryModal } from './BeneficiaryModal.tsx';
import { unitsOf, walletErrorText } from './format.ts';

const AMOUNT_CODES: readonly string[] = [
  WALLET_ERRORS.amountRequired,
  WALLET_ERRORS.amountInvalid,
  WALLET_ERRORS.insufficientBalance,
  WALLET_ERRORS.amountTooSmall,
];
const OTP_CODES: readonly string[] = [WALLET_ERRORS.otpRequired, WALLET_ERRORS.otpInvalid, ERRORS.totpUsed];
const BENEFICIARY_CODES: readonly string[] = [
  WALLET_ERRORS.beneficiaryRequired,
  WALLET_ERRORS.beneficiaryNotActive,
];

/** Which field a refusal belongs to; the rest are toasts. */
function fieldOf(code: string): 'amount' | 'otp' | 'beneficiary_id' | undefined {
  if (AMOUNT_CODES.includes(code)) return 'amount';
  if (OTP_CODES.includes(code)) return 'otp';
  if (BENEFICIARY_CODES.includes(code)) return 'beneficiary_id';
  return undefined;
}

interface Props {
  currency: Currency;
  network: Network;
  /** Available balance of the currency, a decimal string. */
  available: string;
}

/**
 * Withdraw form (docs/wallet.md#screens, #validation): saved address, amount with a 0–100 % slider of the available balance, fee and
 * "will get" lines, then a verification dialog for the authenticator code. Validated with the server's schema.
 */
export function WithdrawPanel({ currency, network, available }: Props) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const precision = currency.precision;
  const unit = currency.id.toUpperCase();
  const { data: beneficiaries } = useBeneficiaries(currency.id, network.blockchain_key);
  const active = (beneficiaries ?? []).filter((b) => b.state === 'active');
  const initial = {
    amount: '',
    otp: '',
    beneficiary_id: '',
    currency: currency.id,
    blockchain_key: network.blockchain_key,
  };
  const [percent, setPercent] = useState(0);
  const [verifying, setVerifying] = useState(false);
  const [managing, setManaging] = useState(false);
  const { form, busy, submit } = useSubmitForm(
    withdrawSchema,
    initial,
    async (body) => {
      await api('peatio', '/account/withdraws', { method: 'POST', body });
      toast.success(t('wallet.withdraw.done'));
      form.reset();
      setPercent(0);
      setVerifying(false);
      void client.invalidateQueries({ queryKey: WALLET_KEYS.history });
      void client.invalidateQueries({ queryKey: WALLET_KEYS.balances });
    },
    (err, setErrors) => {
      const code = err instanceof ApiError ? err.errors[0] : undefined;
      const field = code ? fieldOf(code) : undefined;
      if (code && field) {
        setErrors({ [field]: code });
        if (field !== 'otp') setVerifying(false);
      } else {
        // The refusal's own fields (e.g. `threshold_eur` of an unproved self-hosted address) fill its message.
        const text = walletErrorText(t, err, { ...limits, ...(err instanceof ApiError ? err.details : {}) });
        if (text) toast.error(text);
      }
    },
  );

  // Another user's deposit address here: an internal transfer, with no fee (docs/wallet.md#validation).
  const internal = active.find((b) => String(b.id) === String(form.values.beneficiary_id))?.internal === true;
  const fee = internal ? 0n : unitsOf(network.withdraw_fee, precision);
  const amount = unitsOf(String(form.values.amount), precision);
  const willGet = formatUnits(amountReceived(amount, fee), precision);
  // The spec's two rules: minimum withdrawal + fee to an outside address, the minimum alone to a user here.
  const minimum = withdrawMinimum(network, precision, internal);
  const limits = { min: formatUnits(minimum, precision), currency: unit };
  const message = (code: string) => t([code, 'server.error'], limits);

  /** Everything but the code, with the minimum of the chosen address's kind, before the code is asked for. */
  const precheck = (): boolean => {
    const parsed = withdrawSchema.omit({ otp: true }).safeParse(form.values);
    if (!parsed.success) {
      form.setErrors(fieldErrors(parsed.error));
      return false;
    }
    if (amount > unitsOf(available, precision)) {
      form.setErrors({ amount: WALLET_ERRORS.insufficientBalance });
      return false;
    }
    if (amount < minimum) {
      form.setErrors({ amount: WALLET_ERRORS.amountTooSmall });
      return false;
    }
    return true;
  };

  return (
    <Stack>
      <Group align="flex-end" wrap="nowrap">
        <Select
          style={{ flex: 1 }}
          label={t('wallet.withdraw.address')}
          placeholder={t('wallet.withdraw.addressPlaceholder')}
          data={active.map((b) => ({ value: String(b.id), label: `${b.name} — ${b.data.address}` }))}
          value={form.values.beneficiary_id ? String(form.values.beneficiary_id) : null}
          onChange={(v) => form.set('beneficiary_id', v ?? '')}
          error={form.errors.beneficiary_id && message(form.errors.beneficiary_id)}
          nothingFoundMessage={t('wallet.empty')}
          data-testid="withdraw-beneficiary"
        />
        <Button variant="default" onClick={() => setManaging(true)} data-testid="manage-addresses">
          {t('wallet.withdraw.manage')}
        </Button>
      </Group>
      <AmountWithSlider
        value={String(form.values.amount)}
        onChange={(amount) => form.set('amount', amount)}
        percent={percent}
        onPercent={setPercent}
        available={available}
        precision={precision}
        unit={unit}
        error={form.errors.amount && message(form.errors.amount)}
        description={t('wallet.withdraw.available', { amount: available, coin: unit })}
        testId="withdraw-amount"
      />
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {t('wallet.withdraw.fee')}
        </Text>
        <Text size="sm" data-testid="withdraw-fee">{`${formatUnits(fee, precision)} ${unit}`}</Text>
      </Group>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {t('wallet.withdraw.willGet')}
        </Text>
        <Text size="sm" fw={600} data-testid="withdraw-will-get">{`${willGet} ${unit}`}</Text>
      </Group>
      <Text size="xs" c="dimmed">
        {t('wallet.withdraw.internalNote')}
      </Text>
      <Button
        disabled={!network.withdraw_enabled}
        onClick={() => precheck() && setVerifying(true)}
        data-testid="withdraw-submit"
      >
        {t('wallet.withdraw.submit')}
      </Button>
      {verifying && (
        <Modal opened onClose={() => setVerifying(false)} centered title={t('wallet.withdraw.verifyTitle')}>
          <form onSubmit={submit} noValidate>
            <Stack>
              <Text size="sm">
                {t('wallet.withdraw.verifySummary', { amount: form.values.amount, coin: unit })}
              </Text>
              <CodeInput
                label={t('wallet.withdraw.otp')}
                length={PIN_LENGTH}
                value={form.values.otp}
                onChange={(v) => form.set('otp', v)}
                error={form.errors.otp && message(form.errors.otp)}
                testId="withdraw-otp"
                autoFocus
              />
              <Button type="submit" loading={busy} data-testid="withdraw-confirm">
                {t('wallet.withdraw.confirm')}
              </Button>
            </Stack>
          </form>
        </Modal>
      )}
      {managing && (
        <BeneficiaryModal currency={currency} network={network} onClose={() => setManaging(false)} />
      )}
    </Stack>
  );
}
