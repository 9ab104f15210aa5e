import { MARKET_DATA_ERRORS } from '@exchange/shared';
import { z } from 'zod';
import type { AppDeps } from '../../app.ts';
import { invalid } from '../../http/errors.ts';
import { usdtPriceText } from '../wallet/valuation.ts';

/** `GET /public/currencies/{id}`: any case, as Peatio's `Currency.visible.codes(bothcase: true)`. */
export const currencyParam = z.object({
  id: z.string({ error: MARKET_DATA_ERRORS.currencyNotFound }).max(64).toLowerCase(),
});

/** A currency network's row as `GET /public/currencies` lists it. */
interface NetworkRow {
  explorer_transaction: string | null;
  explorer_address: string | null;
  min_deposit_amount: string;
  min_withdraw_amount: string;
  withdraw_fee: string;
  deposit_enabled: boolean;
  withdraw_enabled: boolean;
  min_confirmations: number;
}

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

/** The visible currencies with their networks, in display order; only `id` when given. */
async function queryCurrencies(deps: Pick<AppDeps, 'db' | 'core'>, id: string | null) {
  const [currencies, networks] = await Promise.all([
    deps.db.query(
      `select id, name, type, precision, icon_url, position, trim_scale(deposit_fee)::text as deposit_fee,
         trim_scale(swap_fee)::text as swap_fee from currencies
       where visible and ($1::text is null or id = $1) order by position`,
      [id],
    ),
    deps.db.query(
      `select n.currency_id, n.blockchain_key, n.protocol, b.explorer_transaction, b.explorer_address,
         trim_scale(n.min_deposit_amount)::text as min_deposit_amount, trim_scale(n.min_withdraw_amount)::text as min_withdraw_amount,
         trim_scale(n.withdraw_fee)::text as withdraw_fee, trim_scale(n.deposit_fee)::text as deposit_fee,
         n.deposit_enabled, n.withdraw_enabled, b.min_confirmations
       from currency_networks n join blockchains b on b.key = n.blockchain_key
       where ($1::text is null or n.currency_id = $1) order by n.id`,
      [id],
    ),
  ]);
  return currencies.rows.map((c) => {
    // Peatio 3 names inside `networks` (withdrawal_enabled) next to ours (withdraw_enabled).
    const own = networks.rows
      .filter((n) => n.currency_id === c.id)
      .map(({ currency_id, ...n }) => ({ ...n, currency_id, withdrawal_enabled: n.withdraw_enabled }));
    return {
      ...c,
      ...defaultNetworkFields(own[0]),
      swap_fees: c.swap_fee,
      price: usdtPriceText(deps.core, c.id),
      networks: own,
    };
  });
}

/** `GET /public/currencies`: every visible currency with its networks. */
export function listCurrencies(deps: Pick<AppDeps, 'db' | 'core'>) {
  return queryCurrencies(deps, null);
}

/**
 * `GET /public/currencies/{id}`: one visible currency in the list's item shape; an unknown or hidden one is
 * Peatio's 422 `public.currency.doesnt_exist`.
 */
export async function findCurrency(deps: Pick<AppDeps, 'db' | 'core'>, id: string) {
  const [currency] = await queryCurrencies(deps, id);
  if (!currency) throw invalid(MARKET_DATA_ERRORS.currencyNotFound);
  return currency;
}
