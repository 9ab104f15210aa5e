import type { AdminMarketEntity } from '@exchange/shared';
import { Badge, Button, Group, NumberInput, Paper, Stack, Table, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { TableHead } from '../../components/TableHead.tsx';
import { useAdminAction } from './useAdminAction.ts';

const EMPTY = {
  id: '',
  base_unit: '',
  quote_unit: '',
  price_precision: 2,
  amount_precision: 4,
  min_price: '',
  max_price: '0',
  min_amount: '',
  maker_fee: '0.001',
  taker_fee: '0.002',
};
/** What a technician may change on an existing market (decimals as typed; the server checks them). */
type Edit = Pick<AdminMarketEntity, 'min_price' | 'max_price' | 'min_amount' | 'maker_fee' | 'taker_fee'>;
const EDITABLE = ['min_price', 'max_price', 'min_amount', 'maker_fee', 'taker_fee'] as const;

/**
 * Technicians: every market with its bounds and fees; enable or disable trading, change bounds and fees, add a
 * market. Every change goes through the exchange core on the server and lands in the trail.
 */
export function AdminMarkets() {
  const { t } = useTranslation();
  const list = useQuery({
    queryKey: ['adminMarkets'],
    queryFn: () => api<AdminMarketEntity[]>('admin', '/markets'),
  });
  const { run, busy } = useAdminAction([['adminMarkets']]);
  const [form, setForm] = useState(EMPTY);
  const [editing, setEditing] = useState<{ id: string; values: Edit } | null>(null);
  const text = (name: keyof typeof EMPTY, label: string) => (
    <TextInput
      label={label}
      value={String(form[name])}
      onChange={(e) => setForm({ ...form, [name]: e.currentTarget.value.trim() })}
    />
  );
  const precision = (name: 'price_precision' | 'amount_precision', label: string) => (
    <NumberInput
      label={label}
      value={form[name]}
      min={0}
      max={18}
      allowDecimal={false}
      onChange={(v) => setForm({ ...form, [name]: typeof v === 'number' ? v : 0 })}
      w={130}
    />
  );
  const add = async () => {
    if (await run('add', 'POST', '/markets', form, t('admin.markets.added'))) setForm(EMPTY);
  };
  const save = async () => {
    if (!editing) return;
    if (await run(`s${editing.id}`, 'POST', `/markets/${editing.id}`, editing.values)) setEditing(null);
  };
  return (
    <Stack>
      <Paper withBorder p="md">
        <Group align="end" wrap="wrap">
          {text('id', t('admin.markets.id'))}
          {text('base_unit', t('admin.markets.base'))}
          {text('quote_unit', t('admin.markets.quote'))}
          {precision('price_precision', t('admin.markets.pricePrecision'))}
          {precision('amount_precision', t('admin.markets.amountPrecision'))}
          {text('min_price', t('admin.markets.minPrice'))}
          {text('max_price', t('admin.markets.maxPrice'))}
          {text('min_amount', t('admin.markets.minAmount'))}
          {text('maker_fee', t('admin.markets.makerFee'))}
          {text('taker_fee', t('admin.markets.takerFee'))}
          <Button loading={busy === 'add'} onClick={add}>
            {t('admin.markets.add')}
          </Button>
        </Group>
      </Paper>
      <Table data-testid="admin-markets">
        <TableHead
          labels={[
            t('admin.markets.id'),
            t('admin.markets.minPrice'),
            t('admin.markets.maxPrice'),
            t('admin.markets.minAmount'),
            t('admin.markets.makerFee'),
            t('admin.markets.takerFee'),
            t('admin.col.state'),
            '',
          ]}
        />
        <Table.Tbody>
          {(list.data ?? []).map((m) => {
            const edit = editing?.id === m.id ? editing : null;
            return (
              <Table.Tr key={m.id} data-testid="admin-market" data-market={m.id} data-state={m.state}>
                <Table.Td>
                  {m.id} ({m.base_unit.toUpperCase()}/{m.quote_unit.toUpperCase()})
                </Table.Td>
                {EDITABLE.map((field) => (
                  <Table.Td key={field}>
                    {edit ? (
                      <TextInput
                        size="xs"
                        aria-label={`${m.id} ${field}`}
                        value={edit.values[field]}
                        onChange={(e) =>
                          setEditing({
                            id: m.id,
                            values: { ...edit.values, [field]: e.currentTarget.value.trim() },
                          })
                        }
                      />
                    ) : (
                      m[field]
                    )}
                  </Table.Td>
                ))}
                <Table.Td>
                  <Badge color={m.state === 'enabled' ? 'teal' : 'gray'}>{m.state}</Badge>
                </Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    {edit ? (
                      <Button size="compact-sm" loading={busy === `s${m.id}`} onClick={save}>
                        {t('admin.markets.save')}
                      </Button>
                    ) : (
                      <Button
                        size="compact-sm"
                        variant="light"
                        onClick={() =>
                          setEditing({
                            id: m.id,
                            values: Object.fromEntries(EDITABLE.map((f) => [f, m[f]])) as Edit,
                          })
                        }
                      >
                        {t('admin.markets.edit')}
                      </Button>
                    )}
                    <Button
                      size="compact-sm"
                      color={m.state === 'enabled' ? 'red' : 'teal'}
                      variant="light"
                      loading={busy === `t${m.id}`}
                      onClick={() =>
                        run(`t${m.id}`, 'POST', `/markets/${m.id}`, {
                          state: m.state === 'enabled' ? 'disabled' : 'enabled',
                        })
                      }
                    >
                      {m.state === 'enabled' ? t('admin.markets.disable') : t('admin.markets.enable')}
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
