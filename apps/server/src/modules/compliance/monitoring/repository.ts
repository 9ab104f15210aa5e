import type pg from 'pg';
import type { NoRows } from '../../../db/pool.ts';
import type { OperationKind, RuleHit } from './rules.ts';

/** An operation not yet seen by the monitor, from its own table. */
export interface NewOperation {
  source: 'deposit' | 'withdrawal' | 'swap' | 'card_topup';
  sourceId: number;
  userId: number;
  kind: OperationKind;
  currency: string;
  amount: string;
  occurredAt: Date;
  counterpartyCountry: string | null;
}

/** The newest profile's country of a user (profiles keep their history). */
const profileCountry = (user: string) =>
  `(select p.country from profiles p where p.user_id = ${user} order by p.id desc limit 1)`;

/**
 * Rows of the five kinds of operation since `horizonHours` that the monitor has not valued yet: credited deposits
 * (a bank deposit's counterparty country is its payer's IBAN's, an internal transfer's the sender's profile
 * country), withdrawals once past `prepared` (an internal one's country the recipient's), completed swaps and card
 * top-ups handed to the issuer. The anti-join on `aml_operations` is the cursor: a row committed late (a lower id
 * after a higher one) is still picked up on a later pass.
 */
export async function newOperations(db: pg.Pool, horizonHours: number, limit = 500): Promise<NewOperation[]> {
  // `at` is never null: each branch filters on it (`credited_at > ...`).
  const rows = await db.query<{
    source: NewOperation['source'];
    id: string;
    user_id: string;
    kind: OperationKind;
    currency_id: string;
    amount: string;
    at: Date;
    country: string | null;
  }>(
    `select * from (
       select 'deposit' as source, d.id, d.user_id,
         case when d.internal_withdrawal_id is null then 'deposit' else 'transfer_in' end as kind,
         d.currency_id, trim_scale(d.amount)::text as amount, d.credited_at as at,
         case when d.bank_transfer_id is not null then
                (select upper(substr(b.debtor_iban, 1, 2)) from bank_transfers b where b.id = d.bank_transfer_id)
              when d.internal_withdrawal_id is not null then
                (select ${profileCountry('w.user_id')} from withdrawals w where w.id = d.internal_withdrawal_id)
         end as country
       from deposits d
       where d.credited_at > now() - make_interval(hours => $1)
         and not exists (select 1 from aml_operations o where o.source = 'deposit' and o.source_id = d.id)
       union all
       select 'withdrawal', w.id, w.user_id,
         case when w.internal_user_id is null then 'withdrawal' else 'transfer_out' end,
         w.currency_id, trim_scale(w.amount)::text, w.created_at,
         case when w.internal_user_id is not null then ${profileCountry('w.internal_user_id')} end
       from withdrawals w
       where w.created_at > now() - make_interval(hours => $1) and w.state <> 'prepared'
         -- A travel-rule return sends back what the customer never had: not the customer's operation.
         and w.travel_rule_return_of is null
         and not exists (select 1 from aml_operations o where o.source = 'withdrawal' and o.source_id = w.id)
       union all
       select 'swap', s.id, s.user_id, 'swap', s.from_currency, trim_scale(s.amount)::text, s.created_at, null
       from swaps s
       where s.created_at > now() - make_interval(hours => $1) and s.state = 'completed'
         and not exists (select 1 from aml_operations o where o.source = 'swap' and o.source_id = s.id)
       union all
       select 'card_topup', c.id, c.user_id, 'card_topup', 'usdt', trim_scale(c.amount)::text, c.created_at, null
       from card_topups c
       where c.created_at > now() - make_interval(hours => $1) and c.state in ('submitted', 'settled')
         and not exists (select 1 from aml_operations o where o.source = 'card_topup' and o.source_id = c.id)
     ) ops order by at limit $2`,
    [horizonHours, limit],
  );
  return rows.rows.map((r) => ({
    source: r.source,
    sourceId: Number(r.id),
    userId: Number(r.user_id),
    kind: r.kind,
    currency: r.currency_id,
    amount: r.amount,
    occurredAt: r.at,
    counterpartyCountry: r.country ?? null,
  }));
}

/** Records a valued operation; null when another pass recorded it first. */
export async function recordOperation(
  db: pg.Pool,
  op: NewOperation,
  eurCents: bigint | null,
): Promise<number | null> {
  const row = (
    await db.query<{ id: string }>(
      `insert into aml_operations (source, source_id, user_id, kind, currency_id, amount, eur_cents,
         counterparty_country, occurred_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9) on conflict (source, source_id) do nothing returning id`,
      [
        op.source,
        op.sourceId,
        op.userId,
        op.kind,
        op.currency,
        op.amount,
        eurCents?.toString() ?? null,
        op.counterpartyCountry,
        op.occurredAt,
      ],
    )
  ).rows[0];
  return row ? Number(row.id) : null;
}

/** The customer's level and their other valued operations in the linked and the pass-through windows. */
export async function customerWindow(
  db: pg.Pool,
  opId: number,
  userId: number,
  at: Date,
  linkedDays: number,
  passThroughMinutes: number,
) {
  const row = (
    await db.query<{
      level: number | null;
      linked_before: string;
      linked_ids: string[];
      recent_in: string;
      recent_out: string;
      recent_ids: string[];
    }>(
      `select (select level from users where id = $2) as level,
         (select coalesce(sum(eur_cents), 0)::text from aml_operations where user_id = $2 and id <> $1
            and occurred_at > $3::timestamptz - make_interval(days => $4) and occurred_at <= $3) as linked_before,
         (select coalesce(array_agg(id order by id), '{}') from aml_operations where user_id = $2 and id <> $1
            and eur_cents is not null
            and occurred_at > $3::timestamptz - make_interval(days => $4) and occurred_at <= $3) as linked_ids,
         (select coalesce(sum(eur_cents), 0)::text from aml_operations where user_id = $2
            and kind in ('deposit', 'transfer_in')
            and occurred_at > $3::timestamptz - make_interval(mins => $5) and occurred_at <= $3) as recent_in,
         (select coalesce(sum(eur_cents), 0)::text from aml_operations where user_id = $2
            and kind in ('withdrawal', 'transfer_out')
            and occurred_at > $3::timestamptz - make_interval(mins => $5) and occurred_at <= $3) as recent_out,
         (select coalesce(array_agg(id order by id), '{}') from aml_operations where user_id = $2 and id <> $1
            and kind in ('deposit', 'transfer_in', 'withdrawal', 'transfer_out')
            and occurred_at > $3::timestamptz - make_interval(mins => $5) and occurred_at <= $3) as recent_ids`,
      [opId, userId, at, linkedDays, passThroughMinutes],
    )
  ).rows[0]!;
  return {
    level: Number(row.level ?? 0),
    linkedBefore: BigInt(row.linked_before),
    linkedIds: row.linked_ids.map(Number),
    recentIn: passThroughMinutes > 0 ? BigInt(row.recent_in) : 0n,
    recentOut: BigInt(row.recent_out),
    recentIds: row.recent_ids.map(Number),
  };
}

/** Opens an alert for a hit; nothing when this operation already has one for this rule. */
export async function openAlert(db: pg.Pool, userId: number, opId: number, hit: RuleHit): Promise<boolean> {
  const inserted = await db.query<NoRows>(
    `insert into aml_alerts (user_id, rule, operation_id, operation_ids, eur_cents, facts)
     values ($1, $2, $3, $4, $5, $6) on conflict (operation_id, rule) do nothing`,
    [userId, hit.rule, opId, hit.operationIds, hit.eurCents?.toString() ?? null, JSON.stringify(hit.facts)],
  );
  return inserted.rowCount === 1;
}

/** The id of the user with this uid, or undefined. */
export async function userIdByUid(db: pg.Pool, uid: string): Promise<number | undefined> {
  const row = (await db.query<{ id: string }>('select id from users where uid = $1', [uid])).rows[0];
  return row ? Number(row.id) : undefined;
}
