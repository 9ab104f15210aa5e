import type { WithdrawLimitListQuery } from '@exchange/shared';
import type pg from 'pg';
import { isoSql } from '../identity/users-repository.ts';

/** The columns an `order_by` may name, as SQL. */
const ORDER_COLUMNS: Record<WithdrawLimitListQuery['order_by'], string> = {
  id: 'currency_id, level',
  kyc_level: 'level, currency_id',
  currency: 'currency_id, level',
  updated_at: 'updated_at, currency_id, level',
};

/**
 * `GET /public/withdraw_limits` in Peatio's shape, from this exchange's limits per user level and currency: every
 * limit applies to all users of its level (`group` is always `any`); `limit_24_hour` is the daily limit and
 * `limit_per_withdrawal` the one of a single withdrawal, in the currency ("0": none). There is no monthly limit
 * (`limit_1_month` is "0"). Filters by `group`, `kyc_level` and `currency`, paged and ordered.
 */
export async function listPublicWithdrawLimits(db: pg.Pool, q: WithdrawLimitListQuery) {
  if (q.group !== undefined && q.group !== 'any') return { items: [], total: 0 };
  const where = `($1::int is null or level = $1) and ($2::text is null or currency_id = $2)`;
  const values = [q.kyc_level ?? null, q.currency ?? null];
  const direction = q.ordering === 'desc' ? 'desc' : 'asc';
  const order = ORDER_COLUMNS[q.order_by]
    .split(', ')
    .map((column) => `${column} ${direction}`)
    .join(', ');
  const [rows, total] = await Promise.all([
    db.query(
      `select level::int as kyc_level, currency_id as currency,
         coalesce(trim_scale(per_day)::text, '0') as limit_24_hour,
         coalesce(trim_scale(per_withdrawal)::text, '0') as limit_per_withdrawal,
         ${isoSql('updated_at')} as updated_at
       from withdraw_limits where ${where} order by ${order} limit $3 offset $4`,
      [...values, q.limit, (q.page - 1) * q.limit],
    ),
    db.query(`select count(*)::int as n from withdraw_limits where ${where}`, values),
  ]);
  const items = rows.rows.map((r) => ({
    group: 'any',
    kyc_level: r.kyc_level as number,
    currency: r.currency as string,
    limit_24_hour: r.limit_24_hour as string,
    limit_1_month: '0',
    limit_per_withdrawal: r.limit_per_withdrawal as string,
    updated_at: r.updated_at as string,
  }));
  return { items, total: total.rows[0].n as number };
}
