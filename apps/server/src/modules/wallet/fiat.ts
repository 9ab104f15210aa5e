import { type FiatWithdrawInput, formatUnits, parseUnits, WALLET_ERRORS } from '@exchange/shared';
import type pg from 'pg';
import type { BankPort, PayoutResult } from '../../adapters/bank/port.ts';
import { validIban } from '../../adapters/bank/port.ts';
import type { Clock } from '../../clock.ts';
import type { Core } from '../../core/index.ts';
import { invalid, notFound } from '../../http/errors.ts';
import type { ServerKeys } from '../identity/crypto.ts';
import type { UserRecord } from '../identity/users-repository.ts';
import { checkTotp } from './totp-check.ts';
import { requireWithdrawPermission } from './withdrawals.ts';

export interface FiatDeps {
  db: pg.Pool;
  core: Core;
  keys: ServerKeys;
  bank: BankPort;
  holdHours: number;
  /** The app's clock (clock.ts): the withdrawal hold is measured on it. */
  clock: Clock;
}

/** Our reference of a payout at the bank: unique per withdrawal, so a repeat never pays twice. */
const fiatReference = (id: number) => `fiat:${id}`;

/** What the web app is told (docs/wallet.md#data, #states: FINISHED refreshes balances, ERROR shows a failure). */
export type ReturnType = 'FINISHED' | 'PROCESSING' | 'ERROR';

const SELECT = `select id, currency_id as currency, trim_scale(amount)::text as amount, trim_scale(fee)::text as fee,
  iban, holder, state, bank_ref, created_at, updated_at from fiat_withdrawals`;

/**
 * A payout to the user's bank account: the same permission as a crypto withdrawal (level 3, 2FA, no recent
 * password or 2FA change), the TOTP code, a valid IBAN; the amount is held in the core, then paid by the bank,
 * then settled (FINISHED) or released (ERROR). A bank that does not answer leaves it PROCESSING, held.
 */
export async function createFiatWithdrawal(deps: FiatDeps, user: UserRecord, input: FiatWithdrawInput) {
  const { db, core } = deps;
  await requireWithdrawPermission(deps, user);
  const currency = (
    await db.query('select precision from currencies where id = $1 and type = $2', [input.currency, 'fiat'])
  ).rows[0];
  if (!currency) throw invalid(WALLET_ERRORS.fiatCurrencyInvalid);
  const parsed = parseUnits(input.amount, currency.precision);
  if (!parsed.ok || parsed.units <= 0n) throw invalid(WALLET_ERRORS.amountInvalid);
  if (!validIban(input.iban)) throw invalid(WALLET_ERRORS.ibanInvalid);
  if (core.sequencer.state.balance(Number(user.id), input.currency).balance < parsed.units)
    throw invalid(WALLET_ERRORS.insufficientBalance);
  await checkTotp(deps, user, input.otp, WALLET_ERRORS.otpInvalid);

  const amount = formatUnits(parsed.units, currency.precision);
  const id = Number(
    (
      await db.query(
        `insert into fiat_withdrawals (user_id, currency_id, amount, iban, holder) values ($1, $2, $3, $4, $5) returning id`,
        [user.id, input.currency, amount, input.iban, input.holder],
      )
    ).rows[0].id,
  );
  const hold = await core.sequencer.submit(
    {
      type: 'HoldWithdrawal',
      user: Number(user.id),
      currency: input.currency,
      amount: parsed.units,
      withdrawalId: `f${id}`,
    },
    `fiat-hold:${id}`,
  );
  if (!hold.ok) {
    await db.query(
      `update fiat_withdrawals set state = 'rejected', error = $2, updated_at = now() where id = $1`,
      [id, hold.code],
    );
    throw invalid(WALLET_ERRORS.insufficientBalance);
  }
  await db.query(`update fiat_withdrawals set state = 'processing', updated_at = now() where id = $1`, [id]);
  let result: PayoutResult;
  try {
    result = await deps.bank.payout({
      reference: fiatReference(id),
      iban: input.iban,
      holder: input.holder,
      currency: input.currency,
      amount,
    });
  } catch (err) {
    // Unknown outcome: the funds stay held until the bank's status (or an operator) says what happened.
    await db.query('update fiat_withdrawals set error = $2, updated_at = now() where id = $1', [
      id,
      String(err).slice(0, 300),
    ]);
    return { returnType: 'PROCESSING' as ReturnType, id };
  }
  return { returnType: await apply(deps, id, result), id };
}

/** Applies the bank's answer through the core: settle on FINISHED, release on ERROR, nothing while PROCESSING. */
async function apply(deps: FiatDeps, id: number, result: PayoutResult): Promise<ReturnType> {
  await deps.db.query('update fiat_withdrawals set bank_ref = $2, updated_at = now() where id = $1', [
    id,
    result.bankRef,
  ]);
  if (result.status === 'PROCESSING') return 'PROCESSING';
  const finished = result.status === 'FINISHED';
  const outcome = await deps.core.sequencer.submit(
    finished
      ? { type: 'SettleWithdrawal', withdrawalId: `f${id}`, fee: 0n }
      : { type: 'ReleaseWithdrawal', withdrawalId: `f${id}` },
    `fiat-${finished ? 'settle' : 'release'}:${id}`,
  );
  if (!outcome.ok) throw new Error(`fiat withdrawal ${id}: ${outcome.code}`);
  await deps.db.query(
    `update fiat_withdrawals set state = $2, error = $3, updated_at = now() where id = $1 and state = 'processing'`,
    [id, finished ? 'succeed' : 'failed', result.reason ?? null],
  );
  return finished ? 'FINISHED' : 'ERROR';
}

/**
 * The user is back from the bank (`POST /account/fiats/withdraw/callback`). The client's word is not trusted:
 * the bank is asked for the payout's status and that is applied.
 */
export async function fiatCallback(
  deps: FiatDeps,
  userId: string,
  id: number,
): Promise<{ returnType: ReturnType }> {
  const row = (
    await deps.db.query('select state from fiat_withdrawals where id = $1 and user_id = $2', [id, userId])
  ).rows[0] as { state: string } | undefined;
  if (!row) throw notFound();
  if (row.state === 'succeed') return { returnType: 'FINISHED' };
  if (row.state !== 'processing') return { returnType: 'ERROR' };
  return { returnType: await apply(deps, id, await deps.bank.status(fiatReference(id))) };
}

/** The wire shape of a fiat withdrawal row. */
function fiatEntity(row: { id: string; created_at: Date; updated_at: Date }) {
  return {
    ...row,
    id: Number(row.id),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The user's fiat withdrawals, newest first, with the total count. */
export async function listFiat(db: pg.Pool, userId: string, page: number, limit: number) {
  const [rows, count] = await Promise.all([
    db.query(`${SELECT} where user_id = $1 order by id desc limit $2 offset $3`, [
      userId,
      limit,
      (page - 1) * limit,
    ]),
    db.query('select count(*)::int as total from fiat_withdrawals where user_id = $1', [userId]),
  ]);
  return { total: count.rows[0].total as number, items: rows.rows.map(fiatEntity) };
}

/** One fiat withdrawal of the user, for the answer of a create. */
export async function findFiat(db: pg.Pool, userId: string, id: number) {
  const row = (await db.query(`${SELECT} where id = $1 and user_id = $2`, [id, userId])).rows[0];
  return row ? fiatEntity(row) : null;
}
