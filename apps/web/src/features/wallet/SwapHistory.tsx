import { LIMITS } from '@exchange/shared';
import { Button, Group, Paper, Select, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Amount, longDate, RoundedAmount } from '../../components/format.tsx';
import { NoRecords, TableHead } from '../../components/TableHead.tsx';
import { useCurrencies, useSwaps } from './api.ts';
import { Pager } from './HistoryTable.tsx';

const LIMIT = LIMITS.tablePageLimit;
const ALL = 'all';
const STATES = [ALL, 'completed', 'rejected'];
/** Precision used when a currency's own is unknown (docs/wallet.md#screens Swap History). */
const DEFAULT_PRECISION = 8;

/** Swap history (docs/wallet.md#screens): Date, You Swap, You Get, Status; state filter with Search and Reset; 10 a page. */
export function SwapHistory() {
  const { t } = useTranslation();
  const { data: currencies } = useCurrencies();
  const [state, setState] = useState(ALL);
  const [applied, setApplied] = useState<string>();
  const [page, setPage] = useState(1);
  const { data } = useSwaps(applied, page, LIMIT);
  const items = data?.items ?? [];
  const precision = (id: string) => currencies?.find((c) => c.id === id)?.precision ?? DEFAULT_PRECISION;

  return (
    <Paper withBorder p="md">
      <Stack>
        <Group align="flex-end">
          <Select
            label={t('wallet.history.status')}
            data={STATES.map((s) => ({ value: s, label: t(`wallet.filter.${s}`) }))}
            value={state}
            onChange={(v) => setState(v ?? ALL)}
            allowDeselect={false}
            data-testid="swap-state"
          />
          <Button
            onClick={() => {
              setApplied(state === ALL ? undefined : state);
              setPage(1);
            }}
            data-testid="swap-search"
          >
            {t('wallet.history.search')}
          </Button>
          <Button
            variant="default"
            onClick={() => {
              setState(ALL);
              setApplied(undefined);
              setPage(1);
            }}
          >
            {t('wallet.history.reset')}
          </Button>
        </Group>
        <Table.ScrollContainer minWidth={600}>
          <Table fz="sm" striped data-testid="swap-history">
            <TableHead
              labels={[
                t('wallet.history.date'),
                t('wallet.swap.youSwap'),
                t('wallet.swap.youGet'),
                t('wallet.history.status'),
              ]}
            />
            <Table.Tbody>
              {items.map((s) => (
                <Table.Tr key={s.id} data-testid="swap-row">
                  <Table.Td>{longDate(s.created_at)}</Table.Td>
                  <Table.Td>
                    <Amount value={s.price} /> {s.ask_currency.toUpperCase()}
                  </Table.Td>
                  <Table.Td>
                    {/* Rounded to the coin's precision, whole; the exact value on hover (docs/wallet.md#screens). */}
                    <RoundedAmount
                      value={s.total}
                      decimals={precision(s.currency)}
                      testId="swap-you-get-cell"
                    />{' '}
                    {s.currency.toUpperCase()}
                  </Table.Td>
                  <Table.Td>
                    <Text span inherit c={s.state === 'rejected' ? 'red' : 'teal'}>
                      {t(`wallet.filter.${s.state}`, { defaultValue: s.state })}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {items.length === 0 && <NoRecords />}
        </Table.ScrollContainer>
        <Pager total={data?.total ?? 0} page={page} limit={LIMIT} onChange={setPage} />
      </Stack>
    </Paper>
  );
}
