import { type ClosureEntity, type RequestClosureInput, requestClosureSchema } from '@exchange/shared';
import {
  Alert,
  Anchor,
  Button,
  Paper,
  PasswordInput,
  Select,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { api } from '../../api/client.ts';
import type { User } from '../../api/user.ts';
import { toast } from '../../app/toast.ts';
import { CodeConfirmModal } from '../../components/CodeConfirmModal.tsx';
import { forgetSession } from '../auth/api.ts';
import { errorText } from '../auth/components/errors.ts';
import { useBeneficiaries } from '../wallet/api.ts';
import { formatDateTime } from './kyc.ts';
import { SECURITY_LOG_QUERY } from './SecurityLogSection.tsx';

const CLOSURE_QUERY = 'accountClosure';
const PATH = '/resource/users/closure';

type Balance = ClosureEntity['balances'][number];

/** Withdrawal states after which the funds came back: the currency needs an address again. */
const RETURNED = ['rejected', 'canceled', 'failed', 'skipped'];

/** A balance that still needs an address: something available, and no withdrawal of the closure on its way. */
const needsAddress = (b: Balance) =>
  b.balance !== '0' && (b.withdrawal === null || RETURNED.includes(b.withdrawal.state));

/**
 * Settings › Close account (issue 31, part 4): what the account still holds, an activated withdrawal address per
 * currency, then a confirmation with the password (and the two-factor code). Afterwards the closure's state: each
 * withdrawal, the date after which balances without an address may be converted, and Cancel while nothing left.
 */
export function CloseAccountSection({ user }: { user: User }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const navigate = useNavigate();
  const [chosen, setChosen] = useState<Record<string, string>>({});
  const [confirming, setConfirming] = useState(false);
  const closure = useQuery({
    queryKey: [CLOSURE_QUERY],
    queryFn: () => api<ClosureEntity>('barong', PATH),
    refetchInterval: (q) => (q.state.data?.state === 'open' ? 10_000 : false),
  });
  const data = closure.data;
  if (!data) return null;
  const open = data.state === 'open';
  const pending = data.balances.filter(needsAddress);
  const addresses = pending
    .filter((b) => chosen[b.currency])
    .map((b) => ({ currency: b.currency, beneficiary_id: Number(chosen[b.currency]) }));

  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: [CLOSURE_QUERY] }),
      client.invalidateQueries({ queryKey: [SECURITY_LOG_QUERY] }),
    ]);

  const done = async (result: ClosureEntity) => {
    setConfirming(false);
    setChosen({});
    if (result.state === 'closed') {
      // The request closed the account and ended this session with it.
      forgetSession(client);
      toast.success(t('closure.closed'));
      navigate('/login', { replace: true });
      return;
    }
    client.setQueryData([CLOSURE_QUERY], result);
    toast.success(t('closure.sent'));
    await refresh();
  };

  const cancel = async () => {
    try {
      await api('barong', PATH, { method: 'DELETE' });
      toast.success(t('closure.canceled'));
    } catch (err) {
      toast.error(errorText(t, err));
    }
    await refresh();
  };

  return (
    <Paper withBorder p="lg" data-testid="close-account-section">
      <Stack align="flex-start">
        <Title order={3}>{t('closure.title')}</Title>
        <Text size="sm">{t('closure.hint')}</Text>
        {data.open_orders > 0 && (
          <Alert color="orange" data-testid="closure-open-orders">
            {t('closure.openOrders', { count: data.open_orders })}
          </Alert>
        )}
        {open && data.requested_at && data.conversion_due_at && (
          <Alert color="blue" data-testid="closure-state">
            {t('closure.requested', { at: formatDateTime(data.requested_at) })}{' '}
            {pending.length > 0 && t('closure.conversion', { at: formatDateTime(data.conversion_due_at) })}
          </Alert>
        )}
        {data.balances.length === 0 ? (
          !open && <Text size="sm">{t('closure.nothingLeft')}</Text>
        ) : (
          <Table verticalSpacing="xs" data-testid="closure-balances">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('closure.currency')}</Table.Th>
                <Table.Th>{t('closure.balance')}</Table.Th>
                <Table.Th>{t('closure.address')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.balances.map((b) => (
                <Table.Tr key={b.currency} data-testid={`closure-row-${b.currency}`}>
                  <Table.Td>{b.currency.toUpperCase()}</Table.Td>
                  <Table.Td>{b.locked !== '0' ? `${b.balance} (+${b.locked})` : b.balance}</Table.Td>
                  <Table.Td>
                    {needsAddress(b) ? (
                      <AddressPicker
                        currency={b.currency}
                        value={chosen[b.currency] ?? null}
                        onChange={(id) => setChosen((c) => ({ ...c, [b.currency]: id ?? '' }))}
                      />
                    ) : b.withdrawal ? (
                      <Text size="sm" data-testid={`closure-withdrawal-${b.currency}`}>
                        {t('closure.withdrawal', {
                          state: t([`closure.state.${b.withdrawal.state}`, b.withdrawal.state]),
                          amount: b.withdrawal.amount,
                          rid: b.withdrawal.rid,
                        })}
                      </Text>
                    ) : (
                      <Text size="sm" c="dimmed">
                        {t('closure.waiting')}
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {!open ? (
          <Button
            color="red"
            disabled={data.open_orders > 0}
            onClick={() => setConfirming(true)}
            data-testid="closure-start"
          >
            {t('closure.start')}
          </Button>
        ) : (
          pending.length > 0 && (
            <Button
              disabled={addresses.length === 0}
              onClick={() => setConfirming(true)}
              data-testid="closure-send"
            >
              {t('closure.send')}
            </Button>
          )
        )}
        {open && data.cancelable && (
          <Button variant="default" onClick={cancel} data-testid="closure-cancel">
            {t('closure.cancel')}
          </Button>
        )}
      </Stack>
      {confirming && (
        <ConfirmClosure
          title={open ? t('closure.sendTitle') : t('closure.confirmTitle')}
          otp={user.otp}
          addresses={addresses}
          onDone={done}
          onClose={() => setConfirming(false)}
        />
      )}
    </Paper>
  );
}

/** The activated addresses of the user for one currency. */
function AddressPicker({
  currency,
  value,
  onChange,
}: {
  currency: string;
  value: string | null;
  onChange: (id: string | null) => void;
}) {
  const { t } = useTranslation();
  const list = useBeneficiaries(currency);
  const active = (list.data ?? []).filter((b) => b.state === 'active');
  if (list.isSuccess && active.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {t('closure.noAddress', { currency: currency.toUpperCase() })}{' '}
        <Anchor component={Link} to="/deposit_withdraw">
          {t('closure.addAddress')}
        </Anchor>
      </Text>
    );
  return (
    <Select
      aria-label={t('closure.address')}
      placeholder={t('closure.pickAddress')}
      data={active.map((b) => ({ value: String(b.id), label: `${b.name} · ${b.data.address}` }))}
      value={value}
      onChange={onChange}
      data-testid={`closure-address-${currency}`}
    />
  );
}

/** The confirmation: password, and the authenticator code when two-factor is on. */
function ConfirmClosure({
  title,
  otp,
  addresses,
  onDone,
  onClose,
}: {
  title: string;
  otp: boolean;
  addresses: RequestClosureInput['addresses'];
  onDone: (result: ClosureEntity) => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  return (
    <CodeConfirmModal
      title={title}
      // The password comes first and keeps the dialog's first focus.
      code={
        otp
          ? { field: 'otp_code', label: t('closure.otp'), testId: 'closure-otp', autoFocus: false }
          : undefined
      }
      check={(code) =>
        requestClosureSchema.safeParse({ password, ...(otp ? { otp_code: code } : {}), addresses })
      }
      onSubmit={async (body) => onDone(await api<ClosureEntity>('barong', PATH, { method: 'POST', body }))}
      onClose={onClose}
      // A wrong password or code is the whole confirmation's refusal.
      refusalIn="alert"
      alertTestId="closure-error"
      submit={{ label: t('closure.confirm'), testId: 'closure-confirm', color: 'red' }}
    >
      {(errorOf) => (
        <>
          <Text size="sm">{t('closure.confirmText')}</Text>
          <PasswordInput
            label={t('closure.password')}
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={errorOf('password')}
            data-testid="closure-password"
          />
        </>
      )}
    </CodeConfirmModal>
  );
}
