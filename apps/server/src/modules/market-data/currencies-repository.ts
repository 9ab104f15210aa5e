import type { currencyNetworkResponse, currencyResponse, WithdrawLimitListQuery } from '@exchange/shared';
import type pg from 'pg';
import type { z } from 'zod';
import { isoSql } from '../identity/users-repository.ts';

/** The SQL of the public currency pages: the visible currencies, their networks and their withdrawal limits. */

type Currency = z.infer<typeof currencyResponse>;

/** A visible currency's own columns, with the daily withdrawal limit of the highest user level (null: none). */
export type CurrencyRow = Pick<
  Currency,
  | 'id'
  | 'name'
  | 'description'
  | 'homepage'
  | 'type'
  | 'precision'
  | 'icon_url'
  | 'position'
  | 'deposit_fee'
  | 'swap_fee'
> & { per_day: string | null };

/** A network of a currency, with its blockchain's explorer links and confirmations. */
export type NetworkRow = Omit<z.infer<typeof currencyNetworkResponse>, 'withdrawal_enabled'>;

/** What narrows the currency list (null: anything): one id, a type, LIKE patterns for the code or the name. */
export interface CurrencyFilter {
  id: string | null;
  type: 'coin' | 'fiat' | null;
  codeLike: string | null;
  nameLike: string | null;
}

/**
 * The visible currencies matching `filter` (the code's or the name's pattern, either, any case), in display order,
 * `limit` of them (null: all) from `offset`, with the number matching.
 */
export async function currencyPage(
  db: pg.Pool,
  filter: CurrencyFilter,
  limit: number | null,
  offset: number,
): Promise<{ items: CurrencyRow[]; total: number }> {
  const where = `visible and ($1::text is null or id = $1) and ($2::text is null or type = $2)
    and (($3::text is null and $4::text is null) or id ilike $3 or name ilike $4)`;
  const values = [filter.id, filter.type, filter.codeLike, filter.nameLike];
  const [currencies, total] = await Promise.all([
    db.query<CurrencyRow>(
      `select id, name, description, homepage, type, precision, icon_url, position,
         trim_scale(deposit_fee)::text as deposit_fee, trim_scale(swap_fee)::text as swap_fee,
         (select trim_scale(l.per_day)::text from withdraw_limits l where l.currency_id = currencies.id
           order by l.level desc limit 1) as per_day
       from currencies where ${where} order by position, id
       limit $5 offset $6`,
      [...values, limit, offset],
    ),
    db.query<{ n: number }>(`select count(*)::int as n from currencies where ${where}`, values),
  ]);
  return { items: currencies.rows, total: total.rows[0]?.n ?? 0 };
}

/** The networks of these currencies, in the order they were added (a currency's first is its default). */
export async function currencyNetworks(db: pg.Pool, currencyIds: string[]): Promise<NetworkRow[]> {
  return (
    await db.query<NetworkRow>(
      `select n.currency_id, n.blockchain_key, n.protocol, b.explorer_transaction, b.explorer_address,
         trim_scale(n.min_deposit_amount)::text as min_deposit_amount, trim_scale(n.min_withdraw_amount)::text as min_withdraw_amount,
         trim_scale(n.withdraw_fee)::text as withdraw_fee, trim_scale(n.deposit_fee)::text as deposit_fee,
         n.deposit_enabled, n.withdraw_enabled, b.min_confirmations
       from currency_networks n join blockchains b on b.key = n.blockchain_key
       where n.currency_id = any($1::text[]) order by n.id`,
      [currencyIds],
    )
  ).rows;
}

/** A withdrawal limit of a user level and currency (amounts "0" when none). */
export interface PublicLimitRow {
  kyc_level: number;
  currency: string;
  limit_24_hour: string;
  limit_per_withdrawal: string;
  updated_at: string;
}

/** The columns an `order_by` may name, as SQL. */
const LIMIT_ORDER: Record<WithdrawLimitListQuery['order_by'], string> = {
  id: 'currency_id, level',
  kyc_level: 'level, currency_id',
  currency: 'currency_id, level',
  updated_at: 'updated_at, currency_id, level',
};

/**
 * The withdrawal limits of a level and a currency (null: any), ordered by `orderBy`'s columns each in `direction`,
 * `limit` of them from `offset`, with the number matching.
 */
export async function withdrawLimitPage(
  db: pg.Pool,
  filter: { level: number | null; currency: string | null },
  order: { by: WithdrawLimitListQuery['order_by']; direction: 'asc' | 'desc' },
  limit: number,
  offset: number,
): Promise<{ items: PublicLimitRow[]; total: number }> {
  const where = `($1::int is null or level = $1) and ($2::text is null or currency_id = $2)`;
  const values = [filter.level, filter.currency];
  const orderBy = LIMIT_ORDER[order.by]
    .split(', ')
    .map((column) => `${column} ${order.direction}`)
    .join(', ');
  const [rows, total] = await Promise.all([
    db.query<PublicLimitRow>(
      `select level::int as kyc_level, currency_id as currency,
         coalesce(trim_scale(per_day)::text, '0') as limit_24_hour,
         coalesce(trim_scale(per_withdrawal)::text, '0') as limit_per_withdrawal,
         ${isoSql('updated_at')} as updated_at
       from withdraw_limits where ${where} order by ${orderBy} limit $3 offset $4`,
      [...values, limit, offset],
    ),
    db.query<{ n: number }>(`select count(*)::int as n from withdraw_limits where ${where}`, values),
  ]);
  return { items: rows.rows, total: total.rows[0]?.n ?? 0 };
}
