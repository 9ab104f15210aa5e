import { STORAGE_KEYS } from '@exchange/shared';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api } from '../../api/client.ts';
import { isLoggedIn, useCurrentUser } from '../../api/user.ts';

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
export function useFavourites() {
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
