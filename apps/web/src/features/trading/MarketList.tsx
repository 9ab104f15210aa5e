import { STORAGE_KEYS } from '@exchange/shared';
import { ActionIcon, Anchor, Paper, ScrollArea, Table, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { api } from '../../api/client.ts';
import { isLoggedIn, useCurrentUser } from '../../api/user.ts';
import { CoinLabel } from '../../components/CoinIcon.tsx';
import { Amount } from '../../components/format.tsx';
import type { Market, Tickers } from './api.ts';
import { pairName } from './format.tsx';

function readFavourites(): string[] {
  try {
    const value = JSON.parse(localStorage.getItem(STORAGE_KEYS.favouriteMarkets) ?? '[]');
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

function saveFavourites(list: string[]): void {
  localStorage.setItem(STORAGE_KEYS.favouriteMarkets, JSON.stringify(list));
}

/** Favourite markets: kept in localStorage (`favMarketsId`), synced with the account when logged in. */
function useFavourites() {
  const { data: user } = useCurrentUser();
  const logged = isLoggedIn(user);
  const [favourites, setFavourites] = useState(readFavourites);
  const server = useQuery({
    queryKey: ['trading', 'favourites'],
    queryFn: () => api<string[]>('peatio', '/account/fav_market/list'),
    enabled: logged,
  });
  useEffect(() => {
    if (!server.data) return;
    saveFavourites(server.data);
    setFavourites(server.data);
  }, [server.data]);
  const toggle = async (id: string) => {
    const on = !favourites.includes(id);
    const next = on ? [...favourites, id] : favourites.filter((f) => f !== id);
    setFavourites(next);
    saveFavourites(next);
    if (!logged) return;
    try {
      const list = await api<string[]>('peatio', '/account/fav_market', {
        method: 'PUT',
        body: { market_id: id, is_fav: on ? 1 : 0 },
      });
      setFavourites(list);
      saveFavourites(list);
    } catch {
      // The local choice stands; it is sent again on the next toggle.
    }
  };
  return { favourites, toggle };
}

/** Markets with last price and change, a search box and favourite stars; a click opens the market. */
export function MarketList({
  markets,
  tickers,
  current,
}: {
  markets: Market[];
  tickers: Tickers | undefined;
  current: string;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const [onlyFavourites, setOnlyFavourites] = useState(false);
  const { favourites, toggle } = useFavourites();
  const needle = search.trim().toLowerCase().replace('/', '');
  const shown = markets.filter(
    (m) =>
      (!needle || m.id.includes(needle) || m.name.toLowerCase().includes(needle)) &&
      (!onlyFavourites || favourites.includes(m.id)),
  );

  return (
    <Paper withBorder p="xs" h="100%">
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
      <ScrollArea h={320} mt="xs">
        <Table fz="xs" highlightOnHover verticalSpacing={4} horizontalSpacing={4}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th />
              <Table.Th>{t('trading.markets.pair')}</Table.Th>
              <Table.Th ta="right">{t('trading.markets.price')}</Table.Th>
              <Table.Th ta="right">{t('trading.markets.change')}</Table.Th>
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
                  <Table.Td ta="right">
                    <Amount value={ticker?.last ?? '0'} />
                  </Table.Td>
                  <Table.Td ta="right">
                    <Text span inherit c={change.startsWith('-') ? 'red' : 'teal'}>
                      {change}
                    </Text>
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
      </ScrollArea>
    </Paper>
  );
}
