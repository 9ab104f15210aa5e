import { type CurrencyListQuery, MARKET_DATA_ERRORS } from '@exchange/shared';
import { z } from 'zod';
import { containsPattern } from '../../db/like.ts';
import { invalid } from '../../http/errors.ts';
import { usdtPriceText } from '../wallet/valuation.ts';
import { currencyNetworks, currencyPage, type NetworkRow } from './currencies-repository.ts';
import type { MarketDataRouteDeps } from './deps.ts';

/** `GET /public/currencies/{id}`: any case, as Peatio's `Currency.visible.codes(bothcase: true)`. */
export const currencyParam = z.object({
  id: z.string({ error: MARKET_DATA_ERRORS.currencyNotFound }).max(64).toLowerCase(),
});

/**
 * The currency-level fields Peatio 2 clients (BaseApp) read, taken from the currency's default network (its
 * first); a currency without a network can be neither deposited nor withdrawn.
 */
function defaultNetworkFields(n: NetworkRow | undefined) {
  return {
    explorer_transaction: n?.explorer_transaction ?? '',
    explorer_address: n?.explorer_address ?? '',
    min_deposit_amount: n?.min_deposit_amount ?? '0',
    min_withdraw_amount: n?.min_withdraw_amount ?? '0',
    withdraw_fee: n?.withdraw_fee ?? '0',
    deposit_enabled: n?.deposit_enabled ?? false,
    withdrawal_enabled: n?.withdraw_enabled ?? false,
    min_confirmations: n?.min_confirmations ?? 0,
  };
}

/** What narrows a currency list: one `id`, a `type`, a `search` text in the code or name, a page. */
interface CurrencyFilter {
  id?: string;
  type?: 'coin' | 'fiat';
  search?: { code?: string | undefined; name?: string | undefined } | undefined;
  page?: { limit: number; offset: number };
}

/**
 * The visible currencies with their networks, in display order, narrowed by `filter`, and how many match
 * before paging. Peatio's search matches the code or the name (either, case-insensitive).
 */
async function queryCurrencies(deps: Pick<MarketDataRouteDeps, 'db' | 'core'>, filter: CurrencyFilter) {
  const { items: currencies, total } = await currencyPage(
    deps.db,
    {
      id: filter.id ?? null,
      type: filter.type ?? null,
      codeLike: filter.search?.code ? containsPattern(filter.search.code) : null,
      nameLike: filter.search?.name ? containsPattern(filter.search.name) : null,
    },
    filter.page?.limit ?? null,
    filter.page?.offset ?? 0,
  );
  const networks = await currencyNetworks(
    deps.db,
    currencies.map((c) => c.id),
  );
  const items = currencies.map(({ per_day, ...c }) => {
    // Peatio 3 names inside `networks` (withdrawal_enabled) next to ours (withdraw_enabled).
    const own = networks
      .filter((n) => n.currency_id === c.id)
      .map(({ currency_id, ...n }) => ({ ...n, currency_id, withdrawal_enabled: n.withdraw_enabled }));
    return {
      ...c,
      ...defaultNetworkFields(own[0]),
      ...withdrawLimits(per_day),
      base_factor: 10 ** c.precision,
      swap_fees: c.swap_fee,
      price: usdtPriceText(deps.core, c.id),
      networks: own,
    };
  });
  return { items, total };
}

/**
 * Peatio's `withdraw_limit_24h` and `withdraw_limit_72h` from this exchange's limit of the highest user level (the
 * level that may withdraw): the daily limit, and three times it (the most three rolling days allow). "0" when
 * the currency has no daily limit (Peatio's default, no limit).
 */
function withdrawLimits(perDay: string | null) {
  if (!perDay) return { withdraw_limit_24h: '0', withdraw_limit_72h: '0' };
  const [whole = '0', fraction = ''] = perDay.split('.');
  const scale = 10n ** BigInt(fraction.length);
  const tripled = (BigInt(whole) * scale + BigInt(fraction || '0')) * 3n;
  // trim_scale left no trailing zero, and a last digit 1-9 times 3 ends in 1-9: the fraction stays as long.
  const text = fraction.length
    ? `${tripled / scale}.${String(tripled % scale).padStart(fraction.length, '0')}`
    : String(tripled);
  return { withdraw_limit_24h: perDay, withdraw_limit_72h: text };
}

/** `GET /public/currencies`: the visible currencies with their networks, filtered and paged as Peatio does. */
export function listCurrencies(deps: Pick<MarketDataRouteDeps, 'db' | 'core'>, query: CurrencyListQuery) {
  return queryCurrencies(deps, {
    ...(query.type ? { type: query.type } : {}),
    search: query.search,
    page: { limit: query.limit, offset: (query.page - 1) * query.limit },
  });
}

/**
 * `GET /public/currencies/{id}`: one visible currency in the list's item shape; an unknown or hidden one is
 * Peatio's 422 `public.currency.doesnt_exist`.
 */
export async function findCurrency(deps: Pick<MarketDataRouteDeps, 'db' | 'core'>, id: string) {
  const {
    items: [currency],
  } = await queryCurrencies(deps, { id });
  if (!currency) throw invalid(MARKET_DATA_ERRORS.currencyNotFound);
  return currency;
}
