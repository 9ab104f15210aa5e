import type { AdminNetworkEntity } from '@exchange/shared';
import { Button, Switch, Table, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { TableHead } from '../../components/TableHead.tsx';
import { useAdminAction } from './useAdminAction.ts';

const AMOUNTS = ['withdraw_fee', 'min_withdraw_amount', 'min_deposit_amount'] as const;
type Amounts = Pick<AdminNetworkEntity, (typeof AMOUNTS)[number]>;

/**
 * Technicians: each currency's networks; switch deposits and withdrawals on or off, change the withdrawal fee and
 * the minimums. The server checks every amount against the currency's precision and keeps the trail.
 */
export function AdminNetworks() {
  const { t } = useTranslation();
  const list = useQuery({
    queryKey: ['adminNetworks'],
    queryFn: () => api<AdminNetworkEntity[]>('admin', '/networks'),
  });
  const { run, busy } = useAdminAction([['adminNetworks']]);
  const [editing, setEditing] = useState<{ key: string; values: Amounts } | null>(null);
  const path = (n: AdminNetworkEntity) => `/networks/${n.currency}/${n.blockchain_key}`;
  const save = async (n: AdminNetworkEntity) => {
    if (editing && (await run(`s${editing.key}`, 'POST', path(n), editing.values))) setEditing(null);
  };
  return (
    <Table data-testid="admin-networks">
      <TableHead
        labels={[
          t('admin.ledger.currency'),
          t('admin.networks.network'),
          t('admin.networks.deposits'),
          t('admin.networks.withdrawals'),
          t('admin.networks.withdrawFee'),
          t('admin.networks.minWithdraw'),
          t('admin.networks.minDeposit'),
          '',
        ]}
      />
      <Table.Tbody>
        {(list.data ?? []).map((n) => {
          const key = `${n.currency}:${n.blockchain_key}`;
          const edit = editing?.key === key ? editing : null;
          const toggle = (field: 'deposit_enabled' | 'withdraw_enabled', label: string) => (
            <Switch
              aria-label={`${key} ${label}`}
              checked={n[field]}
              disabled={busy !== null}
              onChange={(e) => run(`${field}${key}`, 'POST', path(n), { [field]: e.currentTarget.checked })}
            />
          );
          return (
            <Table.Tr key={key} data-testid="admin-network">
              <Table.Td>{n.currency.toUpperCase()}</Table.Td>
              <Table.Td>{n.blockchain_key}</Table.Td>
              <Table.Td>{toggle('deposit_enabled', t('admin.networks.deposits'))}</Table.Td>
              <Table.Td>{toggle('withdraw_enabled', t('admin.networks.withdrawals'))}</Table.Td>
              {AMOUNTS.map((field) => (
                <Table.Td key={field}>
                  {edit ? (
                    <TextInput
                      size="xs"
                      aria-label={`${key} ${field}`}
                      value={edit.values[field]}
                      onChange={(e) =>
                        setEditing({ key, values: { ...edit.values, [field]: e.currentTarget.value.trim() } })
                      }
                    />
                  ) : (
                    n[field]
                  )}
                </Table.Td>
              ))}
              <Table.Td>
                {edit ? (
                  <Button size="compact-sm" loading={busy === `s${key}`} onClick={() => save(n)}>
                    {t('admin.markets.save')}
                  </Button>
                ) : (
                  <Button
                    size="compact-sm"
                    variant="light"
                    onClick={() =>
                      setEditing({
                        key,
                        values: Object.fromEntries(AMOUNTS.map((f) => [f, n[f]])) as Amounts,
                      })
                    }
                  >
                    {t('admin.markets.edit')}
                  </Button>
                )}
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
