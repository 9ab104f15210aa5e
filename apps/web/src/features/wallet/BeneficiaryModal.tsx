import {
  activateBeneficiarySchema,
  type BeneficiaryItem,
  createBeneficiarySchema,
  deleteBeneficiarySchema,
  PIN_LENGTH,
  requireBeneficiaryInfo,
  splitMemo,
  WALLET_ERRORS,
} from '@exchange/shared';
import { Badge, Button, Divider, Group, Modal, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { toast } from '../../app/toast.ts';
import { CodeInput } from '../../components/CodeInput.tsx';
import { useSubmitForm } from '../../components/useSchemaForm.ts';
import { addressFitsProtocol } from './address-check.ts';
import { type Currency, type Network, useBeneficiaries, WALLET_KEYS } from './api.ts';
import { walletErrorCode, walletErrorText } from './format.ts';
import { OwnershipProofForm } from './OwnershipProofForm.tsx';
import { TravelRuleFields } from './TravelRuleFields.tsx';

type ActionKind = 'activate' | 'delete' | 'prove';
type Action = { kind: ActionKind; id: number } | undefined;

/** Enter the emailed pin (6 digits), or ask for a new one (at most once a minute). */
function ActivateForm({ item, onDone }: { item: BeneficiaryItem; onDone: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { form, busy, submit } = useSubmitForm(
    activateBeneficiarySchema,
    { pin: '' },
    async (body) => {
      await api('peatio', `/account/beneficiaries/${item.id}/activate`, { method: 'PATCH', body });
      toast.success(t('wallet.beneficiary.activated'));
      await client.invalidateQueries({ queryKey: WALLET_KEYS.beneficiaries });
      onDone();
    },
    (err, setErrors) => setErrors({ pin: walletErrorCode(err) }),
  );
  const resend = async () => {
    try {
      await api('peatio', `/account/beneficiaries/${item.id}/resend_pin`, { method: 'POST' });
      toast.success(t('wallet.beneficiary.pinSent'));
    } catch (err) {
      const text = walletErrorText(t, err);
      if (text) toast.error(text);
    }
  };
  return (
    <form onSubmit={submit} noValidate>
      <Group align="flex-end" gap="xs">
        <CodeInput
          label={t('wallet.beneficiary.pin')}
          length={PIN_LENGTH}
          value={form.values.pin}
          onChange={(v) => form.set('pin', v)}
          error={form.errors.pin && t([form.errors.pin, 'server.error'])}
          testId="beneficiary-pin"
          autoFocus
        />
        <Button type="submit" size="sm" loading={busy} data-testid="beneficiary-activate-confirm">
          {t('wallet.beneficiary.confirm')}
        </Button>
        <Button size="sm" variant="subtle" onClick={resend} data-testid="beneficiary-resend">
          {t('wallet.beneficiary.resend')}
        </Button>
      </Group>
    </form>
  );
}

/** Removal needs an authenticator code (docs/wallet.md#states). */
function DeleteForm({ item, onDone }: { item: BeneficiaryItem; onDone: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { form, busy, submit } = useSubmitForm(
    deleteBeneficiarySchema,
    { otp: '' },
    async (body) => {
      await api('peatio', `/account/beneficiaries/${item.id}`, { method: 'DELETE', body });
      toast.success(t('wallet.beneficiary.deleted'));
      await client.invalidateQueries({ queryKey: WALLET_KEYS.beneficiaries });
      onDone();
    },
    (err, setErrors) => setErrors({ otp: walletErrorCode(err) }),
  );
  return (
    <form onSubmit={submit} noValidate>
      <Group align="flex-end" gap="xs">
        <CodeInput
          label={t('wallet.beneficiary.otp')}
          length={6}
          value={form.values.otp}
          onChange={(v) => form.set('otp', v)}
          error={form.errors.otp && t([form.errors.otp, 'server.error'])}
          testId="beneficiary-delete-otp"
          autoFocus
        />
        <Button type="submit" size="sm" color="red" loading={busy} data-testid="beneficiary-delete-confirm">
          {t('wallet.beneficiary.delete')}
        </Button>
      </Group>
    </form>
  );
}

/** Name, address and optional memo (sent as `address?dt=memo`); the new address waits for its pin. */
function AddForm({
  currency,
  network,
  onAdded,
}: {
  currency: Currency;
  network: Network;
  onAdded: (item: BeneficiaryItem) => void;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [memo, setMemo] = useState('');
  const [address, setAddress] = useState('');
  // The server's checksum check, run here first so a mistyped address is flagged under the field.
  const schema = useMemo(
    () =>
      // The travel rule's fields are optional on the wire (older clients) but required here.
      createBeneficiarySchema
        .superRefine(requireBeneficiaryInfo)
        .refine((v) => addressFitsProtocol(network.protocol, v.data.address), {
          message: WALLET_ERRORS.beneficiaryAddressInvalid,
          path: ['data', 'address'],
        }),
    [network.protocol],
  );
  const { form, busy, submit } = useSubmitForm(
    schema,
    {
      name: '',
      currency: currency.id,
      blockchain_key: network.blockchain_key,
      data: { address: '' },
      beneficiary_name: '',
    },
    async (body) => {
      const item = await api<BeneficiaryItem>('peatio', '/account/beneficiaries', { method: 'POST', body });
      toast.success(t('wallet.beneficiary.added'));
      await client.invalidateQueries({ queryKey: WALLET_KEYS.beneficiaries });
      form.reset();
      setAddress('');
      setMemo('');
      onAdded(item);
    },
    (err) => {
      const text = walletErrorText(t, err);
      if (text) toast.error(text);
    },
  );
  const setData = (nextAddress: string, nextMemo: string) => {
    setAddress(nextAddress);
    setMemo(nextMemo);
    const joined = nextMemo.trim() ? `${nextAddress.trim()}?dt=${nextMemo.trim()}` : nextAddress;
    form.set('data', { address: joined });
    form.setErrors(({ 'data.address': _dropped, ...rest }) => rest);
  };
  const addressError = form.errors.data ?? form.errors['data.address'];
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="xs">
        <TextInput
          label={t('wallet.beneficiary.name')}
          value={form.values.name}
          onChange={(e) => form.set('name', e.currentTarget.value)}
          error={form.errors.name && t(form.errors.name)}
          data-testid="beneficiary-name"
        />
        <TextInput
          label={t('wallet.beneficiary.address')}
          value={address}
          onChange={(e) => setData(e.currentTarget.value, memo)}
          error={addressError && t(addressError)}
          data-testid="beneficiary-address"
        />
        <TextInput
          label={t('wallet.beneficiary.memo')}
          value={memo}
          onChange={(e) => setData(address, e.currentTarget.value)}
        />
        <TravelRuleFields
          values={form.values}
          errors={form.errors}
          onChange={(next) => {
            form.set('beneficiary_name', next.beneficiary_name);
            form.set('hosting', next.hosting);
            form.set('provider_id', next.provider_id);
          }}
        />
        <Button type="submit" loading={busy} data-testid="beneficiary-add">
          {t('wallet.beneficiary.add')}
        </Button>
      </Stack>
    </form>
  );
}

/** Manage addresses (docs/wallet.md#screens, #states): list by currency and network, add, activate with the pin, delete with 2FA. */
export function BeneficiaryModal({
  currency,
  network,
  onClose,
}: {
  currency: Currency;
  network: Network;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { data } = useBeneficiaries(currency.id, network.blockchain_key);
  const [action, setAction] = useState<Action>();
  const toggle = (kind: ActionKind, id: number) =>
    setAction((a) => (a?.kind === kind && a.id === id ? undefined : { kind, id }));
  return (
    <Modal
      opened
      onClose={onClose}
      centered
      size="lg"
      title={t('wallet.beneficiary.title', { coin: currency.id.toUpperCase() })}
    >
      <Stack>
        {data?.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('wallet.empty')}
          </Text>
        )}
        {data?.map((item) => {
          const { address, memo } = splitMemo(item.data.address);
          return (
            <Paper key={item.id} withBorder p="sm" data-testid="beneficiary-row">
              <Group justify="space-between" wrap="nowrap">
                <Stack gap={2} style={{ minWidth: 0 }}>
                  <Group gap="xs">
                    <Text fw={600}>{item.name}</Text>
                    <Badge color={item.state === 'active' ? 'teal' : 'yellow'} size="sm">
                      {t(`wallet.beneficiary.state.${item.state}`)}
                    </Badge>
                    {item.ownership_proved_at && (
                      <Badge color="blue" size="sm" data-testid="beneficiary-proved">
                        {t('wallet.beneficiary.proved')}
                      </Badge>
                    )}
                  </Group>
                  <Text size="xs" ff="monospace" style={{ wordBreak: 'break-all' }}>
                    {address}
                  </Text>
                  {memo && <Text size="xs">{t('wallet.beneficiary.memoValue', { memo })}</Text>}
                  {item.beneficiary_name && (
                    <Text size="xs" c="dimmed">
                      {item.beneficiary_name} ·{' '}
                      {item.provider?.name ??
                        t(`wallet.beneficiary.hosting.${item.hosting ?? 'self_hosted'}`)}
                    </Text>
                  )}
                </Stack>
                <Group gap="xs" wrap="nowrap">
                  {item.state !== 'active' && (
                    <Button size="xs" variant="light" onClick={() => toggle('activate', item.id)}>
                      {t('wallet.beneficiary.activate')}
                    </Button>
                  )}
                  {item.state === 'active' && item.hosting === 'self_hosted' && !item.ownership_proved_at && (
                    <Button
                      size="xs"
                      variant="light"
                      onClick={() => toggle('prove', item.id)}
                      data-testid="beneficiary-prove"
                    >
                      {t('wallet.beneficiary.prove')}
                    </Button>
                  )}
                  <Button size="xs" variant="subtle" color="red" onClick={() => toggle('delete', item.id)}>
                    {t('wallet.beneficiary.delete')}
                  </Button>
                </Group>
              </Group>
              {action?.id === item.id && (
                <>
                  <Divider my="xs" />
                  {action.kind === 'activate' && (
                    <ActivateForm item={item} onDone={() => setAction(undefined)} />
                  )}
                  {action.kind === 'delete' && <DeleteForm item={item} onDone={() => setAction(undefined)} />}
                  {action.kind === 'prove' && (
                    <OwnershipProofForm item={item} onDone={() => setAction(undefined)} />
                  )}
                </>
              )}
            </Paper>
          );
        })}
        <Divider label={t('wallet.beneficiary.addTitle')} />
        <AddForm
          currency={currency}
          network={network}
          onAdded={(item) => setAction({ kind: 'activate', id: item.id })}
        />
      </Stack>
    </Modal>
  );
}
