import type { AdminTravelRuleDeposit, IncomingTravelRuleStatus } from '@exchange/shared';
import type pg from 'pg';
import type { NoRows, SelectOne, Tx } from '../../../db/pool.ts';
import { isoSql } from '../../identity/users-repository.ts';
import { lockForDecision } from '../decisions-repository.ts';
import type { ReturnedDeposit } from './incoming-return.ts';

type Db = pg.Pool | Tx;

/** A deposit as the console lists it, its IVMS record undefined or null when none came. */
type DepositRow = Omit<AdminTravelRuleDeposit, 'record'> & { record?: AdminTravelRuleDeposit['record'] };

/** A deposit locked for a decision: what a return needs, its states and the customer's uid. */
export interface LockedDeposit extends ReturnedDeposit {
  user_id: string;
  state: string;
  travel_rule_status: IncomingTravelRuleStatus | null;
  uid: string;
}

const SELECT = `select d.id::int, u.uid, u.email, d.currency_id as currency, d.blockchain_key,
    trim_scale(d.amount)::text as amount, d.txid, d.address, d.from_address, d.state,
    d.travel_rule_status as status, d.travel_rule->>'provider_id' as provider_id,
    d.travel_rule->>'provider_name' as provider_name, d.travel_rule->'payload' as record,
    case when r.id is null then null else json_build_object('withdrawal_id', r.id::int, 'state', r.state,
      'amount', trim_scale(r.amount)::text, 'fee', trim_scale(r.fee)::text, 'to_address', r.rid, 'txid', r.txid,
      'error', r.error) end as return,
    s.email as decided_by, ${isoSql('d.travel_rule_decided_at')} as decided_at, d.travel_rule_note as reason,
    ${isoSql('d.created_at')} as created_at
  from deposits d join users u on u.id = d.user_id left join users s on s.id = d.travel_rule_decided_by
    left join withdrawals r on r.travel_rule_return_of = d.id`;

/** The row as the console shows it: no record is null. */
const view = (r: DepositRow): AdminTravelRuleDeposit => ({ ...r, record: r.record ?? null });

/**
 * The deposits whose travel-rule status is one of `statuses`, newest first, at most 500; `held` and `awaiting`
 * ones only while not credited (`submitted`).
 */
export async function depositsInStatuses(
  db: Db,
  statuses: readonly string[],
): Promise<AdminTravelRuleDeposit[]> {
  return (
    await db.query<DepositRow>(
      `${SELECT} where d.travel_rule_status = any($1)
         and (d.travel_rule_status not in ('held', 'awaiting') or d.state = 'submitted')
       order by d.id desc limit 500`,
      [statuses],
    )
  ).rows.map(view);
}

/** The deposit with this id as the console shows it (undefined when unknown). */
export async function depositById(db: Db, id: number): Promise<AdminTravelRuleDeposit | undefined> {
  return (await db.query<DepositRow>(`${SELECT} where d.id = $1`, [id])).rows.map(view)[0];
}

/** Locks the deposit for a decision (`for update`, inside the caller's transaction); undefined when unknown. */
export function lockDeposit(tx: Tx, id: number): Promise<LockedDeposit | undefined> {
  return lockForDecision<LockedDeposit>(
    tx,
    'deposits',
    `x.id::int, x.user_id, x.currency_id, x.blockchain_key, x.amount::text, x.from_address, x.state,
       x.travel_rule_status`,
    id,
  );
}

/**
 * Records staff's decision on a held deposit (`released` or `returned`) at `at` (the app's clock) with who took it and why; a returned one
 * is rejected in the same statement, so the watcher never credits it.
 */
export async function recordDepositDecision(
  db: Db,
  id: number,
  status: 'released' | 'returned',
  decidedBy: string,
  reason: string,
  at: Date,
): Promise<void> {
  await db.query(
    `update deposits set travel_rule_status = $2, travel_rule_decided_by = $3, travel_rule_decided_at = $5,
         travel_rule_note = $4,
         state = case when $2 = 'returned' then 'rejected' else state end,
         note = case when $2 = 'returned' then 'travel rule: returned to the sender' else note end,
         updated_at = now()
       where id = $1`,
    [id, status, decidedBy, reason, at],
  );
}

/**
 * Keeps the travel-rule service's answer on a deposit not yet credited nor decided (`status`, what is kept of the
 * answer, when it was asked); false when the deposit changed meanwhile (nothing is written then).
 */
export async function recordIncomingAnswer(
  db: Db,
  id: number | string,
  status: IncomingTravelRuleStatus,
  record: Record<string, unknown>,
  checkedAt: Date,
): Promise<boolean> {
  const updated = await db.query<NoRows>(
    `update deposits set travel_rule_status = $2, travel_rule = $3::jsonb, travel_rule_checked_at = $4,
       updated_at = now()
     where id = $1 and state = 'submitted' and (travel_rule_status is null or travel_rule_status = 'awaiting')`,
    [id, status, JSON.stringify(record), checkedAt],
  );
  return updated.rowCount === 1;
}

/** Whether the app knows this network (`blockchains.key`). */
export async function networkExists(db: Db, network: string): Promise<boolean> {
  return (await db.query<SelectOne>('select 1 from blockchains where key = $1', [network])).rowCount === 1;
}

/** The sender the chain named for a deposit the app saw (null: none seen, or a chain that names none). */
export async function depositSender(
  db: Db,
  transfer: { network: string; txid: string; address: string },
): Promise<string | null> {
  return (
    (
      await db.query<{ from_address: string | null }>(
        `select from_address from deposits where blockchain_key = $1 and txid = $2 and address = $3
          order by id desc limit 1`,
        [transfer.network, transfer.txid, transfer.address],
      )
    ).rows[0]?.from_address ?? null
  );
}
