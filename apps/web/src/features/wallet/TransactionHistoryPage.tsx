import {
  ADJUSTMENT_STATE_FILTERS,
  DEPOSIT_STATE_FILTERS,
  LIMITS,
  WALLET_ERRORS,
  WITHDRAW_STATE_FILTERS,
  walletHistoryQuery,
} from '@exchange/shared';
import { Button, Group, Paper, Select, Stack, Tabs, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type HistoryFilters, type HistoryKind, useWalletHistory } from './api.ts';
import { HistoryTable, Pager } from './HistoryTable.tsx';

const LIMIT = LIMITS.tablePageLimit;
const ALL = 'all';
const STATES: Record<HistoryKind, string[]> = {
  deposits: Object.keys(DEPOSIT_STATE_FILTERS),
  withdraws: Object.keys(WITHDRAW_STATE_FILTERS),
  adjustments: Object.keys(ADJUSTMENT_STATE_FILTERS),
};

/** Today as YYYY-MM-DD in the user's calendar: the latest date a filter may name. */
function today(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** Epoch seconds of a YYYY-MM-DD day at 00:00:00 UTC. */
const dayStart = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000;

/**
 * The time filter (docs/wallet.md#validation): no future dates, the end not before the start; the start goes as the start of its
 * day UTC and the end as 23:59:59 UTC, in epoch seconds. Returns the error code on a bad range.
 */
export function timeRange(from: string, to: string): { time_from?: number; time_to?: number } | string {
  const max = today();
  if ((from && from > max) || (to && to > max)) return WALLET_ERRORS.invalidDateRange;
  const range = {
    time_from: from ? dayStart(from) : undefined,
    time_to: to ? dayStart(to) + 86_399 : undefined,
  };
  const parsed = walletHistoryQuery.safeParse(range);
  return parsed.success ? range : WALLET_ERRORS.invalidDateRange;
}

function HistoryTab({ kind }: { kind: HistoryKind }) {
  const { t } = useTranslation();
  const [state, setState] = useState(ALL);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [error, setError] = useState<string>();
  const [filters, setFilters] = useState<HistoryFilters>({ page: 1, limit: LIMIT });
  const { data } = useWalletHistory(kind, filters);

  const search = () => {
    const range = timeRange(from, to);
    if (typeof range === 'string') return setError(t(range));
    setError(undefined);
    setFilters({ page: 1, limit: LIMIT, state: state === ALL ? undefined : state, ...range });
  };
  const reset = () => {
    setState(ALL);
    setFrom('');
    setTo('');
    setError(undefined);
    setFilters({ page: 1, limit: LIMIT });
  };

  return (
    <Stack pt="md">
      <Group align="flex-end">
        <Select
          label={t('wallet.history.status')}
          data={[ALL, ...STATES[kind]].map((s) => ({ value: s, label: t(`wallet.filter.${s}`) }))}
          value={state}
          onChange={(v) => setState(v ?? ALL)}
          allowDeselect={false}
          data-testid="history-state"
        />
        <TextInput
          type="date"
          label={t('wallet.history.startDate')}
          value={from}
          max={today()}
          onChange={(e) => setFrom(e.currentTarget.value)}
          data-testid="history-from"
        />
        <TextInput
          type="date"
          label={t('wallet.history.endDate')}
          value={to}
          max={today()}
          onChange={(e) => setTo(e.currentTarget.value)}
          data-testid="history-to"
        />
        <Button onClick={search} data-testid="history-search">
          {t('wallet.history.search')}
        </Button>
        <Button variant="default" onClick={reset} data-testid="history-reset">
          {t('wallet.history.reset')}
        </Button>
      </Group>
      {error && (
        <Text c="red" size="sm" data-testid="history-error">
          {error}
        </Text>
      )}
      <HistoryTable kind={kind} items={data?.items ?? []} testId={`history-${kind}`} />
      <Pager
        total={data?.total ?? 0}
        page={filters.page}
        limit={LIMIT}
        onChange={(page) => setFilters((f) => ({ ...f, page }))}
      />
    </Stack>
  );
}

/** `/history/account` (docs/wallet.md#screens): deposits, withdrawals and adjustments with status and date filters. */
export function TransactionHistoryPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<string | null>('deposits');
  return (
    <Stack p="md">
      <Title order={2}>{t('wallet.history.title')}</Title>
      <Paper withBorder p="md">
        <Tabs value={tab} onChange={setTab} keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="deposits">{t('wallet.tab.deposit')}</Tabs.Tab>
            <Tabs.Tab value="withdraws">{t('wallet.tab.withdraw')}</Tabs.Tab>
            <Tabs.Tab value="adjustments">{t('wallet.tab.adjustment')}</Tabs.Tab>
          </Tabs.List>
          {(['deposits', 'withdraws', 'adjustments'] as const).map((kind) => (
            <Tabs.Panel key={kind} value={kind}>
              <HistoryTab kind={kind} />
            </Tabs.Panel>
          ))}
        </Tabs>
      </Paper>
    </Stack>
  );
}
