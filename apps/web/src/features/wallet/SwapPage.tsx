import { amountQuoteQuery, type SwapItem, WALLET_ERRORS } from '@exchange/shared';
import { Button, Group, Paper, Select, Stack, Tabs, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api } from '../../api/client.ts';
import { toast } from '../../app/toast.ts';
import { coinSelectIcons } from '../../components/CoinIcon.tsx';
import { longDate, units } from '../../components/format.tsx';
import { useMarkets } from '../trading/api.ts';
import { useAmountQuote, useCurrencies, useWalletBalances, WALLET_KEYS } from './api.ts';
import { walletErrorText } from './format.ts';
import { SwapHistory } from './SwapHistory.tsx';
import { swapSources, swapTargets, typedSwapAmount } from './swap-form.ts';

/** Quotes are asked for 500 ms after the last keystroke (docs/wallet.md#constants debounce). */
const QUOTE_DEBOUNCE_MS = 500;

function Line({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" data-testid={testId}>
        {value}
      </Text>
    </Group>
  );
}

/** From coin, to coin and amount; a live quote (rate, fee, what you get, expiry); Swap executes the quote. */
function SwapForm() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { data: currencies } = useCurrencies();
  const { data: balances } = useWalletBalances();
  const [from, setFrom] = useState('usdt');
  const [to, setTo] = useState('btc');
  const [amount, setAmount] = useState('');
  const [busy, setBusy] = useState(false);
  const [debounced] = useDebouncedValue(amount, QUOTE_DEBOUNCE_MS);
  const request = { from_currency: from, to_currency: to, amount: debounced };
  const valid = from !== to && amountQuoteQuery.safeParse(request).success && units(debounced) > 0n;
  const quote = useAmountQuote(from, to, debounced, valid);
  const { data: markets } = useMarkets();
  const option = (id: string) => ({ value: id, label: id.toUpperCase() });
  // Only pairs a market trades: a swap's price comes from that market's book.
  const fromOptions = swapSources(
    markets ?? [],
    (currencies ?? []).map((c) => c.id),
  ).map(option);
  const targets = swapTargets(markets ?? [], from);
  const toOptions = targets.map(option);
  const icons = Object.fromEntries((currencies ?? []).map((c) => [c.id, c.icon_url || null]));
  const precision = currencies?.find((c) => c.id === from)?.precision ?? 8;
  useEffect(() => {
    if (markets && targets.length > 0 && !targets.includes(to)) setTo(targets[0] as string);
  }, [markets, targets, to]);
  const available = balances?.find((b) => b.currency === from)?.balance ?? '0';
  const current = quote.data && amount === debounced ? quote.data : undefined;

  const swap = async () => {
    if (!current) return;
    setBusy(true);
    try {
      await api<SwapItem>('peatio', '/account/swaps', {
        method: 'POST',
        body: { ...request, quote_id: current.quote_id },
      });
      toast.success(t('wallet.swap.done'));
      setAmount('');
      void client.invalidateQueries({ queryKey: WALLET_KEYS.swaps });
      void client.invalidateQueries({ queryKey: WALLET_KEYS.balances });
    } catch (err) {
      if (err instanceof ApiError && err.errors.includes(WALLET_ERRORS.swapQuoteExpired)) {
        toast.error(t('wallet.swap.requoted'));
        void quote.refetch();
      } else {
        const text = walletErrorText(t, err);
        if (text) toast.error(text);
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper withBorder p="md" maw={520}>
      <Stack>
        <Group grow>
          <Select
            label={t('wallet.swap.from')}
            data={fromOptions}
            value={from}
            onChange={(v) => {
              if (!v) return;
              setFrom(v);
              // The amount keeps to the new currency's precision.
              const p = currencies?.find((c) => c.id === v)?.precision ?? 8;
              if (typedSwapAmount(amount, p) === null) setAmount('');
            }}
            allowDeselect={false}
            {...coinSelectIcons(from, icons)}
            data-testid="swap-from"
          />
          <Select
            label={t('wallet.swap.to')}
            data={toOptions}
            value={to}
            onChange={(v) => v && setTo(v)}
            allowDeselect={false}
            {...coinSelectIcons(to, icons)}
            data-testid="swap-to"
          />
        </Group>
        <TextInput
          label={t('wallet.swap.amount')}
          inputMode="decimal"
          autoComplete="off"
          value={amount}
          description={t('wallet.withdraw.available', { amount: available, coin: from.toUpperCase() })}
          onChange={(e) => {
            const next = typedSwapAmount(e.currentTarget.value, precision);
            if (next !== null) setAmount(next);
          }}
          error={from === to ? t('wallet.swap.samePair') : undefined}
          data-testid="swap-amount"
        />
        {quote.isError && amount === debounced && (
          <Text c="red" size="sm" data-testid="swap-quote-error">
            {walletErrorText(t, quote.error)}
          </Text>
        )}
        {current && (
          <Stack gap={4} data-testid="swap-quote">
            <Line
              label={t('wallet.swap.rate')}
              value={`1 ${from.toUpperCase()} ≈ ${current.price} ${to.toUpperCase()}`}
            />
            <Line label={t('wallet.swap.fee')} value={`${current.fee} ${to.toUpperCase()}`} />
            <Line
              label={t('wallet.swap.youGet')}
              value={`${current.total} ${to.toUpperCase()}`}
              testId="swap-you-get"
            />
            <Line label={t('wallet.swap.expires')} value={longDate(current.expires_at)} />
          </Stack>
        )}
        <Button
          onClick={swap}
          loading={busy}
          disabled={!current || quote.isFetching}
          data-testid="swap-submit"
        >
          {t('wallet.swap.submit')}
        </Button>
      </Stack>
    </Paper>
  );
}

/** `/swap`: the swap form and the swap history (docs/wallet.md#screens). */
export function SwapPage() {
  const { t } = useTranslation();
  return (
    <Stack p="md">
      <Title order={2}>{t('wallet.swap.title')}</Title>
      <Tabs defaultValue="swap" keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="swap">{t('wallet.swap.tab')}</Tabs.Tab>
          <Tabs.Tab value="history" data-testid="tab-swap-history">
            {t('wallet.swap.historyTab')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="swap">
          <SwapForm />
        </Tabs.Panel>
        <Tabs.Panel value="history">
          <SwapHistory />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
