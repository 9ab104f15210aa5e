import { formatUnits } from '@exchange/shared';
import { Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CoinLabel } from '../../components/CoinIcon.tsx';
import { fixed, SCALE, units } from '../../components/format.tsx';
import { useCurrencies } from '../wallet/api.ts';
import { type Market, type Tickers, useBalances } from './api.ts';
import { usdtPrice, usdtValue } from './usdt-value.ts';

/** Decimals shown when the currency list does not give a currency's precision. */
const DEFAULT_PRECISION = 8;

/**
 * The user's balances under the trading view (issue 32): each coin with its icon, total, available and in orders,
 * and what the total is worth in USDT at the markets' last prices; figures right-aligned in tabular digits.
 */
export function TradingBalances({ markets, tickers }: { markets: Market[]; tickers: Tickers | undefined }) {
  const { t } = useTranslation();
  const { data: balances } = useBalances();
  const { data: currencies } = useCurrencies();
  const rows = (balances ?? []).map((b) => {
    const currency = currencies?.find((c) => c.id === b.currency);
    return {
      coin: b.currency,
      icon: currency?.icon_url || null,
      precision: Math.min(currency?.precision ?? DEFAULT_PRECISION, SCALE),
      available: b.balance,
      locked: b.locked,
      // balance + locked, exact.
      total: formatUnits(units(b.balance) + units(b.locked), SCALE),
    };
  });
  const figure = (value: string, precision: number) => fixed(value, precision, Math.min(precision, 8));
  return (
    <Table.ScrollContainer minWidth={0}>
      <Table fz="xs" striped data-testid="trading-balances">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('wallet.balance.coin')}</Table.Th>
            <Table.Th ta="right">{t('wallet.balance.totalBalance')}</Table.Th>
            <Table.Th ta="right">{t('wallet.balance.available')}</Table.Th>
            <Table.Th ta="right">{t('wallet.balance.inOrder')}</Table.Th>
            <Table.Th ta="right">{t('trading.balances.usdtValue')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => {
            const worth = usdtValue(r.total, usdtPrice(r.coin, markets, tickers));
            return (
              <Table.Tr key={r.coin} data-testid={`trading-balance-${r.coin}`} data-usdt={worth ?? ''}>
                <Table.Td fw={600}>
                  <CoinLabel ticker={r.coin} url={r.icon}>
                    {r.coin.toUpperCase()}
                  </CoinLabel>
                </Table.Td>
                <Table.Td ta="right" className="tabular">
                  {figure(r.total, r.precision)}
                </Table.Td>
                <Table.Td ta="right" className="tabular">
                  {figure(r.available, r.precision)}
                </Table.Td>
                <Table.Td ta="right" className="tabular">
                  {figure(r.locked, r.precision)}
                </Table.Td>
                <Table.Td ta="right" className="tabular" data-testid="usdt-value">
                  {worth ?? '—'}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      {balances?.length === 0 && (
        <Text size="xs" c="dimmed" ta="center" py="sm">
          {t('trading.empty')}
        </Text>
      )}
    </Table.ScrollContainer>
  );
}
