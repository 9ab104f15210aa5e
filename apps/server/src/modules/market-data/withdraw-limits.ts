import type { WithdrawLimitListQuery } from '@exchange/shared';
import type pg from 'pg';
import { withdrawLimitPage } from './currencies-repository.ts';

/**
 * `GET /public/withdraw_limits` in Peatio's shape, from this exchange's limits per user level and currency: every
 * limit applies to all users of its level (`group` is always `any`); `limit_24_hour` is the daily limit and
 * `limit_per_withdrawal` the one of a single withdrawal, in the currency ("0": none). There is no monthly limit
 * (`limit_1_month` is "0"). Filters by `group`, `kyc_level` and `currency`, paged and ordered.
 */
export async function listPublicWithdrawLimits(db: pg.Pool, q: WithdrawLimitListQuery) {
  if (q.group !== undefined && q.group !== 'any') return { items: [], total: 0 };
  const { items: rows, total } = await withdrawLimitPage(
    db,
    { level: q.kyc_level ?? null, currency: q.currency ?? null },
    { by: q.order_by, direction: q.ordering === 'desc' ? 'desc' : 'asc' },
    q.limit,
    (q.page - 1) * q.limit,
  );
  const items = rows.map((r) => ({
    group: 'any',
    kyc_level: r.kyc_level,
    currency: r.currency,
    limit_24_hour: r.limit_24_hour,
    limit_1_month: '0',
    limit_per_withdrawal: r.limit_per_withdrawal,
    updated_at: r.updated_at,
  }));
  return { items, total };
}
