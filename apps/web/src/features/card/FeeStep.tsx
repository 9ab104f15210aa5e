import { CARD_ERRORS, cardCostSchema, fieldErrors } from '@exchange/shared';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Loader,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/toast.ts';
import { COUNTRIES } from '../auth/countries.ts';
import { useWalletBalances } from '../wallet/api.ts';
import { cardCalls, useCardFee } from './api.ts';
import { FeeSummary } from './FeeSummary.tsx';
import { cardCodeText, cardErrorCode, cardErrorText, coversFee } from './format.ts';

type AddressField = 'address' | 'city' | 'post_code' | 'country';

/** Codes that belong under one shipping field or the confirmation box, shown there rather than as a toast. */
const FIELD_OF: Record<string, string> = {
  [CARD_ERRORS.postCodeInvalid]: 'shipping_address.post_code',
  [CARD_ERRORS.countryInvalid]: 'shipping_address.country',
  [CARD_ERRORS.confirmationRequired]: 'confirmed',
};

/**
 * Step 4, Fee (docs/cards.md#screens, #validation): the card_fee figures, the shipping address (postcode: letters, digits, underscore,
 * at most 6) and a confirmation to tick, then Pay, which needs USDT at least activation plus annual fee. With
 * `cardNumber` it pays that unpaid card (the dashboard's Pay); without, it orders a new card.
 */
export function FeeStep({
  cardNumber,
  country,
  onPaid,
  onCancel,
}: {
  cardNumber?: string;
  country: string | undefined;
  onPaid: () => void;
  onCancel?: () => void;
}) {
  const { t } = useTranslation();
  const fee = useCardFee();
  const balances = useWalletBalances();
  const usdt = balances.data ? (balances.data.find((b) => b.currency === 'usdt')?.balance ?? '0') : undefined;
  const [address, setAddress] = useState({ address: '', city: '', post_code: '', country: country ?? '' });
  const [confirmed, setConfirmed] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [insufficient, setInsufficient] = useState(false);
  const [busy, setBusy] = useState(false);
  const countries = useMemo(() => COUNTRIES.map((c) => ({ value: c.iso, label: c.name })), []);

  const set = (field: AddressField, value: string) => {
    setAddress((a) => ({ ...a, [field]: value }));
    setErrors(({ [`shipping_address.${field}`]: _dropped, ...rest }) => rest);
  };
  const error = (key: string) => (errors[key] ? cardCodeText(t, errors[key]) : undefined);

  const pay = async (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = cardCostSchema.safeParse({
      card_number: cardNumber,
      shipping_address: address,
      confirmed,
    });
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    if (!fee.data) return;
    if (!coversFee(usdt, fee.data)) {
      setInsufficient(true);
      return toast.error(t(CARD_ERRORS.feeBalanceInsufficient));
    }
    setInsufficient(false);
    setBusy(true);
    try {
      await cardCalls.payCard(parsed.data);
      toast.success(t('card.fee.paid'));
      onPaid();
    } catch (err) {
      const code = cardErrorCode(err);
      const field = FIELD_OF[code];
      if (field) setErrors({ [field]: code });
      else if (code === CARD_ERRORS.feeBalanceInsufficient) setInsufficient(true);
      toast.error(cardErrorText(t, err));
    } finally {
      setBusy(false);
    }
  };

  if (fee.isPending) return <Loader mt="md" aria-label={t('card.fee.loading')} />;
  if (fee.isError)
    return (
      <Alert color="red" mt="md" data-testid="card-fee-error">
        {cardErrorText(t, fee.error)}
      </Alert>
    );
  return (
    <form onSubmit={pay} noValidate data-testid="card-wizard-fee">
      <Stack mt="md">
        <Text c="dimmed" size="sm">
          {cardNumber ? t('card.fee.payFor', { card: cardNumber }) : t('card.fee.intro')}
        </Text>
        <FeeSummary fee={fee.data} usdtBalance={usdt} />
        <Title order={4}>{t('card.fee.shipping')}</Title>
        <TextInput
          label={t('card.fee.address')}
          value={address.address}
          onChange={(e) => set('address', e.currentTarget.value)}
          error={error('shipping_address.address')}
          maxLength={200}
          autoComplete="street-address"
          data-testid="card-ship-address"
        />
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput
            label={t('card.fee.city')}
            value={address.city}
            onChange={(e) => set('city', e.currentTarget.value)}
            error={error('shipping_address.city')}
            maxLength={100}
            autoComplete="address-level2"
            data-testid="card-ship-city"
          />
          <TextInput
            label={t('card.fee.postCode')}
            value={address.post_code}
            onChange={(e) => set('post_code', e.currentTarget.value)}
            error={error('shipping_address.post_code')}
            maxLength={6}
            autoComplete="postal-code"
            data-testid="card-ship-postcode"
          />
          <Select
            label={t('card.fee.country')}
            placeholder={t('card.fee.countryPlaceholder')}
            data={countries}
            value={address.country || null}
            onChange={(v) => set('country', v ?? '')}
            error={error('shipping_address.country')}
            searchable
            data-testid="card-ship-country"
          />
        </SimpleGrid>
        <Checkbox
          label={t('card.fee.confirm')}
          checked={confirmed}
          onChange={(e) => {
            setConfirmed(e.currentTarget.checked);
            setErrors(({ confirmed: _dropped, ...rest }) => rest);
          }}
          error={error('confirmed')}
          data-testid="card-ship-confirm"
        />
        {insufficient && (
          <Alert color="red" role="alert" data-testid="card-fee-insufficient">
            {t(CARD_ERRORS.feeBalanceInsufficient)}
          </Alert>
        )}
        <Group justify="flex-end">
          {onCancel && (
            <Button variant="default" onClick={onCancel} data-testid="card-pay-cancel">
              {t('card.fee.cancel')}
            </Button>
          )}
          <Button type="submit" loading={busy} disabled={balances.isPending} data-testid="card-pay">
            {t('card.fee.pay')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
