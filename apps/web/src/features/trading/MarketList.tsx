import {
  ActionIcon,
  Anchor,
  Paper,
  ScrollArea,
  Table,
  Text,
  TextInput,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { CoinLabel } from '../../components/CoinIcon.tsx';
import { fixed } from '../../components/format.tsx';
import type { Market, Tickers } from './api.ts';
import { pairName } from './format.tsx';
import { compactVolume, type MarketSort, type MarketSortKey, sortMarkets } from './market-sort.ts';
import { useFavourites } from './useFavourites.ts';

/** Busiest markets first until the user sorts otherwise. */
const DEFAULT_SORT: MarketSort = { key: 'volume', ascending: false };

/**
 * Markets with last price, 24-hour change and volume, sortable by each column with favourites always first, a
 * search box and favourite stars; a click opens the market. The list is as tall as its rows, up to `maxHeight`.
 */
export function MarketList({
  markets,
  tickers,
  current,
  maxHeight = 320,
}: {
  markets: Market[];
  tickers: Tickers | undefined;
  current: string;
  maxHeight?: number;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const [onlyFavourites, setOnlyFavourites] = useState(false);
  const [sort, setSort] = useState<MarketSort>(DEFAULT_SORT);
  const { favourites, toggle } = useFavourites();
  const needle = search.trim().toLowerCase().replace('/', '');
  const shown = sortMarkets(
    markets.filter(
      (m) =>
        (!needle || m.id.includes(needle) || m.name.toLowerCase().includes(needle)) &&
        (!onlyFavourites || favourites.includes(m.id)),
    ),
    tickers,
    favourites,
    sort,
  );

  const header = (key: MarketSortKey, label: string, right = true) => {
    const active = sort.key === key;
    return (
      <Table.Th
        ta={right ? 'right' : undefined}
        aria-sort={active ? (sort.ascending ? 'ascending' : 'descending') : undefined}
      >
        <UnstyledButton
          fz="xs"
          fw={700}
          data-testid={`market-sort-${key}`}
          onClick={() => setSort((s) => ({ key, ascending: s.key === key ? !s.ascending : key === 'pair' }))}
        >
          {label}
          <span aria-hidden="true">{active ? (sort.ascending ? ' ▲' : ' ▼') : ''}</span>
        </UnstyledButton>
      </Table.Th>
    );
  };

  return (
    <Paper withBorder p="xs" data-testid="market-list">
      <TextInput
        size="xs"
        placeholder={t('trading.markets.search')}
        aria-label={t('trading.markets.search')}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        rightSection={
          <ActionIcon
            variant="subtle"
            size="sm"
            color="yellow"
            aria-label={t('trading.markets.onlyFavourites')}
            aria-pressed={onlyFavourites}
            onClick={() => setOnlyFavourites((v) => !v)}
          >
            {onlyFavourites ? '★' : '☆'}
          </ActionIcon>
        }
      />
      {/* As tall as its rows: four markets take four rows, not a fixed half screen. */}
      <ScrollArea.Autosize mah={maxHeight} mt={4}>
        <Table fz="xs" highlightOnHover verticalSpacing={3} horizontalSpacing={4} className="trading-nowrap">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={24}>
                <VisuallyHidden>{t('trading.markets.favouriteColumn')}</VisuallyHidden>
              </Table.Th>
              {header('pair', t('trading.markets.pair'), false)}
              {header('price', t('trading.markets.price'))}
              {header('change', t('trading.markets.change'))}
              {header('volume', t('trading.markets.volume'))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((m) => {
              const ticker = tickers?.[m.id]?.ticker;
              const change = ticker?.price_change_percent ?? '+0.00%';
              const fav = favourites.includes(m.id);
              return (
                <Table.Tr
                  key={m.id}
                  data-market={m.id}
                  data-favourite={fav ? 'true' : 'false'}
                  style={{ cursor: 'pointer' }}
                  bg={m.id === current ? 'var(--mantine-color-default-hover)' : undefined}
                  onClick={() => navigate(`/trade/${m.id}`)}
                >
                  <Table.Td>
                    <ActionIcon
                      variant="subtle"
                      size="xs"
                      color="yellow"
                      aria-label={t(fav ? 'trading.markets.unfavourite' : 'trading.markets.favourite')}
                      onClick={(e) => {
                        e.stopPropagation();
                        void toggle(m.id);
                      }}
                    >
                      {fav ? '★' : '☆'}
                    </ActionIcon>
                  </Table.Td>
                  <Table.Td>
                    {/* The row opens the market on a click; the name is its link for the keyboard. */}
                    <Anchor
                      component={Link}
                      to={`/trade/${m.id}`}
                      c="inherit"
                      inherit
                      underline="hover"
                      aria-current={m.id === current ? 'page' : undefined}
                      onClick={(e) => e.stopPropagation()}
                    >
                      <CoinLabel ticker={m.base_unit}>{pairName(m.base_unit, m.quote_unit)}</CoinLabel>
                    </Anchor>
                  </Table.Td>
                  <Table.Td ta="right" className="tabular">
                    {fixed(ticker?.last ?? '0', m.price_precision, m.price_precision)}
                  </Table.Td>
                  <Table.Td ta="right" className="tabular">
                    <Text span inherit c={change.startsWith('-') ? 'red' : 'teal'}>
                      {change}
                    </Text>
                  </Table.Td>
                  <Table.Td
                    ta="right"
                    className="tabular"
                    data-testid="market-volume"
                    title={`${ticker?.amount ?? '0'} ${m.quote_unit.toUpperCase()}`}
                  >
                    {compactVolume(ticker?.amount)}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
        {shown.length === 0 && (
          <Text size="xs" c="dimmed" ta="center" py="sm">
            {t('trading.empty')}
          </Text>
        )}
      </ScrollArea.Autosize>
    </Paper>
  );
}
