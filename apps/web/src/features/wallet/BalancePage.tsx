import { formatUnits } from '@exchange/shared';
import { Button, Group, Paper, Stack, Table, Text, TextInput, Title, UnstyledButton } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCurrentUser } from '../../api/user.ts';
import { CoinLabel } from '../../components/CoinIcon.tsx';
import { Amount, SCALE, units } from '../../components/format.tsx';
import { NoRecords } from '../../components/TableHead.tsx';
import { type BalanceRow, type Currency, useCurrencies, useWalletBalances } from './api.ts';
import { FiatWithdrawModal } from './FiatWithdrawModal.tsx';
import { COIN_STORAGE_KEY } from './format.ts';
import { SolvencyProofPanel } from './SolvencyProofPanel.tsx';

/** Display precision when a currency's own is unknown. */
const DEFAULT_PRECISION = 8;

type SortKey = 'coin' | 'name' | 'total' | 'available' | 'locked';

interface Row {
  coin: string;
  /** The currency's icon (`icon_url`), when the currency list gives one. */
  icon: string | null;
  fiat: boolean;
  name: string;
  precision: number;
  available: bigint;
  locked: bigint;
  total: bigint;
  usdt: bigint;
}

/** total = balance + locked; its USDT value = total × price (docs/wallet.md#data), exact at 18 decimals. */
function toRow(b: BalanceRow, currency: Currency | undefined): Row {
  const available = units(b.balance);
  const locked = units(b.locked);
  const total = available + locked;
  const price = units(b.usdt_price || '1');
  return {
    coin: b.currency,
    icon: currency?.icon_url || null,
    fiat: currency?.type === 'fiat',
    name: b.name ?? currency?.name ?? b.currency.toUpperCase(),
    precision: Math.min(b.precision ?? currency?.precision ?? DEFAULT_PRECISION, SCALE),
    available,
    locked,
    total,
    usdt: (total * price) / 10n ** BigInt(SCALE),
  };
}

const show = (value: bigint, precision: number) =>
  formatUnits(value / 10n ** BigInt(SCALE - precision), precision);

function compare(a: Row, b: Row, key: SortKey): number {
  if (key === 'coin' || key === 'name') return a[key].localeCompare(b[key]);
  const x = a[key];
  const y = b[key];
  return x === y ? 0 : x < y ? -1 : 1;
}

/** `/balance` (docs/wallet.md#screens Spot Balance): total in USDT, search, a sortable table, Deposit/Withdraw per coin. */
export function BalancePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data } = useWalletBalances();
  // EUR by bank transfer is a business account's deposit method (its page explains what verification is missing).
  const business = useCurrentUser().data?.account_type === 'business';
  const [search, setSearch] = useState('');
  const [fiat, setFiat] = useState<Row>();
  const [sort, setSort] = useState<{ key: SortKey; asc: boolean }>({ key: 'coin', asc: true });
  const { data: currencies } = useCurrencies();
  const rows = useMemo(
    () =>
      (data ?? []).map((b) =>
        toRow(
          b,
          currencies?.find((c) => c.id === b.currency),
        ),
      ),
    [data, currencies],
  );
  const totalUsdt = rows.reduce((sum, r) => sum + r.usdt, 0n);
  const needle = search.trim().toLowerCase();
  const shown = rows
    .filter((r) => !needle || r.coin.includes(needle) || r.name.toLowerCase().includes(needle))
    .sort((a, b) => compare(a, b, sort.key) * (sort.asc ? 1 : -1));

  const header = (key: SortKey, label: string) => (
    <Table.Th>
      <UnstyledButton
        fz="sm"
        fw={700}
        onClick={() => setSort((s) => ({ key, asc: s.key === key ? !s.asc : true }))}
        data-testid={`sort-${key}`}
      >
        {label} {sort.key === key ? (sort.asc ? '▲' : '▼') : ''}
      </UnstyledButton>
    </Table.Th>
  );

  const open = (coin: string) => {
    localStorage.setItem(COIN_STORAGE_KEY, coin);
    navigate('/deposit_withdraw');
  };

  return (
    <Stack p="md">
      <Title order={2}>{t('wallet.balance.title')}</Title>
      <Paper withBorder p="md">
        <Text size="sm" c="dimmed">
          {t('wallet.balance.total')}
        </Text>
        <Text fz={28} fw={700} data-testid="total-usdt">
          {`${formatUnits(totalUsdt / 10n ** BigInt(SCALE - 2), 2, 2)} USDT`}
        </Text>
      </Paper>
      <Paper withBorder p="md">
        <Stack>
          <Group justify="space-between">
            <Title order={4}>{t('wallet.balance.assets')}</Title>
            <TextInput
              placeholder={t('wallet.balance.search')}
              aria-label={t('wallet.balance.search')}
              value={search}
              onChange={(e) => setSearch(e.currentTarget.value)}
              data-testid="balance-search"
            />
          </Group>
          <Table.ScrollContainer minWidth={720}>
            <Table striped data-testid="balances">
              <Table.Thead>
                <Table.Tr>
                  {header('coin', t('wallet.balance.coin'))}
                  {header('name', t('wallet.balance.name'))}
                  {header('total', t('wallet.balance.totalBalance'))}
                  {header('available', t('wallet.balance.available'))}
                  {header('locked', t('wallet.balance.inOrder'))}
                  <Table.Th>{t('wallet.balance.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {shown.map((r) => (
                  <Table.Tr key={r.coin} data-testid={`balance-${r.coin}`}>
                    <Table.Td fw={600}>
                      <CoinLabel ticker={r.coin} url={r.icon}>
                        {r.coin.toUpperCase()}
                      </CoinLabel>
                    </Table.Td>
                    <Table.Td>{r.name}</Table.Td>
                    <Table.Td>
                      <Amount value={show(r.total, r.precision)} />
                    </Table.Td>
                    <Table.Td>
                      <Amount value={show(r.available, r.precision)} />
                    </Table.Td>
                    <Table.Td>
                      <Amount value={show(r.locked, r.precision)} />
                    </Table.Td>
                    <Table.Td>
                      {r.fiat ? (
                        <Group gap="xs" wrap="nowrap">
                          {r.coin === 'eur' && business && (
                            <Button
                              size="xs"
                              variant="light"
                              onClick={() => navigate('/deposit/eur')}
                              data-testid={`fiat-deposit-${r.coin}`}
                            >
                              {t('wallet.bank.open')}
                            </Button>
                          )}
                          <Button
                            size="xs"
                            variant="light"
                            onClick={() => setFiat(r)}
                            data-testid={`fiat-${r.coin}`}
                          >
                            {t('wallet.fiat.open')}
                          </Button>
                        </Group>
                      ) : (
                        <Button size="xs" variant="light" onClick={() => open(r.coin)}>
                          {t('wallet.balance.depositWithdraw')}
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            {data && shown.length === 0 && <NoRecords />}
          </Table.ScrollContainer>
        </Stack>
      </Paper>
      <SolvencyProofPanel />
      {fiat && (
        <FiatWithdrawModal
          currency={fiat.coin}
          available={show(fiat.available, fiat.precision)}
          onClose={() => setFiat(undefined)}
        />
      )}
    </Stack>
  );
}
