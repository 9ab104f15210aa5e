import type pg from 'pg';

/** A pool, or one client (e.g. inside a repeatable-read transaction, so the audit sees one snapshot). */
export type Queryable = pg.Pool | pg.PoolClient;

/** One broken rule found by {@link auditLedger}. */
export interface AuditFailure {
  rule: string;
  currency: string;
  account?: string;
  detail: string;
}

/**
 * Checks the money invariants on a live database:
 * 1. per currency, user balances + locked + system accounts sum to zero (the `external` account carries the net
 *    outside flow with the opposite sign), i.e. money is conserved;
 * 2. every command's postings (every batch's, before the journal) sum to zero per currency (double entry), and
 *    so do those of each cause within a command;
 * 3. every user balance and locked amount, and every system account, equals the sum of its postings;
 * 4. the card side ({@link auditCards});
 * 5. the SEPA deposits ({@link auditBankDeposits}).
 */
export async function auditLedger(db: Queryable): Promise<AuditFailure[]> {
  const failures: AuditFailure[] = [];
  const conservation = await db.query<{ currency_id: string; total: string }>(
    `with totals as (
       select currency_id, sum(balance + locked) as amount from balances group by currency_id
       union all select currency_id, sum(amount) from system_balances group by currency_id)
     select currency_id, sum(amount)::text as total from totals group by currency_id having sum(amount) <> 0`,
  );
  for (const r of conservation.rows) {
    failures.push({
      rule: 'conservation',
      currency: r.currency_id,
      detail: `accounts sum to ${r.total}, not 0`,
    });
  }
  // Postings from the journal on name their command; earlier ones their batch (or, outside the core, a ref).
  const unbalanced = await db.query<{ batch: string; currency_id: string; total: string }>(
    `select coalesce('command ' || command_seq, 'batch ' || batch_seq, ref, 'none') as batch, currency_id,
       sum(amount)::text as total
     from ledger_postings group by 1, 2 having sum(amount) <> 0`,
  );
  for (const r of unbalanced.rows) {
    failures.push({
      rule: 'double-entry',
      currency: r.currency_id,
      detail: `${r.batch} postings sum to ${r.total}`,
    });
  }
  // Within a command, so do the postings of each cause (a trade, a fee, an order's hold, a deposit ...).
  const uncaused = await db.query<{
    command_seq: string | null;
    kind: string;
    ref: string | null;
    currency_id: string;
    total: string;
  }>(
    `select command_seq, kind, ref, currency_id, sum(amount)::text as total from ledger_postings
     where command_seq is not null group by 1, 2, 3, 4 having sum(amount) <> 0 order by 1 limit 100`,
  );
  for (const r of uncaused.rows) {
    failures.push({
      rule: 'cause-balances',
      currency: r.currency_id,
      detail: `command ${r.command_seq}: the ${r.kind} postings of ${r.ref ?? 'the command'} sum to ${r.total}`,
    });
  }
  const mismatched = await db.query<{
    account: string;
    currency_id: string;
    held: string;
    posted: string;
  }>(
    `with posted as (select account, currency_id, sum(amount) as total from ledger_postings group by 1, 2),
     held as (
       select 'u:' || user_id || ':main' as account, currency_id, balance as amount from balances
       union all select 'u:' || user_id || ':locked', currency_id, locked from balances
       union all select account, currency_id, amount from system_balances)
     select coalesce(h.account, p.account) as account, coalesce(h.currency_id, p.currency_id) as currency_id,
       coalesce(h.amount, 0)::text as held, coalesce(p.total, 0)::text as posted
     from held h full join posted p on p.account = h.account and p.currency_id = h.currency_id
     where coalesce(h.amount, 0) <> coalesce(p.total, 0)
     order by 2, 1 limit 100`,
  );
  for (const r of mismatched.rows) {
    failures.push({
      rule: 'balance-equals-postings',
      currency: r.currency_id,
      account: r.account,
      detail: `holds ${r.held} but its postings sum to ${r.posted}`,
    });
  }
  failures.push(...(await auditCards(db)));
  failures.push(...(await auditBankDeposits(db)));
  return failures;
}

/**
 * SEPA deposits against the ledger (modules/bank-deposits): money came in from a bank transfer only through its
 * `bank-deposit:<id>` credit, once. So every successful `bank-deposit:<id>` command has its transfer, credited
 * (or `crediting`: a process stopped between the credit and its record, which the bank's next notification
 * completes); and every credited transfer has exactly one such command and one deposit row of its amount.
 */
export async function auditBankDeposits(db: Queryable): Promise<AuditFailure[]> {
  const exists = (await db.query<{ ok: boolean }>(`select to_regclass('bank_transfers') is not null as ok`))
    .rows[0]!.ok;
  if (!exists) return [];
  const failures: AuditFailure[] = [];
  const fail = (rule: string, detail: string) => failures.push({ rule, currency: 'eur', detail });
  const orphan = await db.query<{ ref: string }>(
    `select c.ref from client_commands c where c.ok and c.ref like 'bank-deposit:%'
       and not exists (select 1 from bank_transfers t where 'bank-deposit:' || t.id = c.ref
                         and t.state in ('credited', 'crediting')) limit 20`,
  );
  for (const r of orphan.rows)
    fail('bank-deposit-transfer', `${r.ref} credited money but no credited transfer`);
  const credited = await db.query<{ id: string; commands: string; deposits: string }>(
    `with counted as (
       select t.id,
         (select count(*) from client_commands c where c.ok and c.ref = 'bank-deposit:' || t.id) as commands,
         (select count(*) from deposits d where d.bank_transfer_id = t.id and d.amount = t.amount
            and d.user_id = t.user_id) as deposits
       from bank_transfers t where t.state = 'credited')
     select id, commands, deposits from counted where commands <> 1 or deposits <> 1 limit 20`,
  );
  for (const r of credited.rows)
    fail(
      'bank-deposit-credit',
      `transfer ${r.id} is credited with ${r.commands} credits and ${r.deposits} deposits`,
    );
  return failures;
}

/**
 * The card top-ups against the ledger. The invariant of the design (modules/card/topups.ts): a top-up's
 * `CardTopUp` moves its amount into the `card` float, where it stays while the top-up is pending (submitted),
 * on the card (settled) or refused and not yet refunded (failed); a refund (`CardRefund`) takes it out again.
 * So:
 * - the `card` float (USDT) = Σ amount of top-ups submitted, settled or failed, plus those still `new` whose
 *   `card-topup:<id>` command the core has committed (a process stopped before recording it);
 * - every `card-topup:<id>` command that succeeded has its top-up row (no money in the float without one);
 * - every refunded top-up has exactly one successful `card-refund:<id>`, and no other top-up has any.
 * Whether a settled top-up is on its card is the issuer's to say, not this database's: the card tests check it
 * against the simulator's own records (`apps/server/test/support/card.ts`).
 */
export async function auditCards(db: Queryable): Promise<AuditFailure[]> {
  const failures: AuditFailure[] = [];
  const fail = (rule: string, detail: string) => failures.push({ rule, currency: 'usdt', detail });
  const float = (
    await db.query<{ float: string; owed: string; eq: boolean }>(
      `select f.float::text as float, o.owed::text as owed, f.float = o.owed as eq
       from (select coalesce((select amount from system_balances where account = 'card' and currency_id = 'usdt'), 0)
               as float) f,
            (select coalesce(sum(t.amount), 0) as owed from card_topups t
             where t.state in ('submitted', 'settled', 'failed')
                or (t.state = 'new' and exists (select 1 from client_commands c
                      where c.ref = 'card-topup:' || t.id and c.ok))) o`,
    )
  ).rows[0]!;
  if (!float.eq) fail('card-float', `the card float holds ${float.float} but the top-ups owe ${float.owed}`);
  const orphan = await db.query<{ ref: string }>(
    `select c.ref from client_commands c where c.ok and c.ref like 'card-topup:%'
       and not exists (select 1 from card_topups t where 'card-topup:' || t.id = c.ref) limit 20`,
  );
  for (const r of orphan.rows) fail('card-topup-row', `${r.ref} moved money but has no top-up row`);
  const refunds = await db.query<{ id: string; state: string; n: string }>(
    `select t.id, t.state, count(c.ref) as n from card_topups t
       left join client_commands c on c.ref = 'card-refund:' || t.id and c.ok
     group by t.id, t.state
     having (t.state = 'refunded' and count(c.ref) <> 1) or (t.state <> 'refunded' and count(c.ref) <> 0) limit 20`,
  );
  for (const r of refunds.rows) fail('card-refund', `top-up ${r.id} (${r.state}) has ${r.n} refunds`);
  return failures;
}
