import { type FiatWithdrawInput, formatUnits, parseUnits, WALLET_ERRORS } from '@exchange/shared';
import type pg from 'pg';
import type { BankPort, PayoutResult } from '../../adapters/bank/port.ts';
import { validIban } from '../../adapters/bank/port.ts';
import type { Clock } from '../../clock.ts';
import type { Core } from '../../core/index.ts';
import { invalid, notFound } from '../../http/errors.ts';
import type { ServerKeys } from '../identity/crypto.ts';
import type { UserRecord } from '../identity/users-repository.ts';
import {
  type FiatWithdrawalRow,
  fiatPage,
  fiatPrecision,
  fiatRow,
  fiatState,
  finishFiatWithdrawal,
  insertFiatWithdrawal,
  markFiatProcessing,
  noteFiatError,
  rejectFiatWithdrawal,
  setFiatBankRef,
} from './fiat-repository.ts';
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

/**
 * A payout to the user's bank account: the same permission as a crypto withdrawal (level 3, 2FA, no recent
 * password or 2FA change), the TOTP code, a valid IBAN; the amount is held in the core, then paid by the bank,
 * then settled (FINISHED) or released (ERROR). A bank that does not answer leaves it PROCESSING, held.
 */
export async function createFiatWithdrawal(deps: FiatDeps, user: UserRecord, input: FiatWithdrawInput) {
  const { db, core } = deps;
  await requireWithdrawPermission(deps, user);
  const precision = await fiatPrecision(db, input.currency);
  if (precision === undefined) throw invalid(WALLET_ERRORS.fiatCurrencyInvalid);
  const parsed = parseUnits(input.amount, precision);
  if (!parsed.ok || parsed.units <= 0n) throw invalid(WALLET_ERRORS.amountInvalid);
  if (!validIban(input.iban)) throw invalid(WALLET_ERRORS.ibanInvalid);
  if (core.sequencer.state.balance(Number(user.id), input.currency).balance < parsed.units)
    throw invalid(WALLET_ERRORS.insufficientBalance);
  await checkTotp(deps, user, input.otp, WALLET_ERRORS.otpInvalid);

  const amount = formatUnits(parsed.units, precision);
  const id = Number(
    await insertFiatWithdrawal(db, {
      userId: user.id,
      currency: input.currency,
      amount,
      iban: input.iban,
      holder: input.holder,
    }),
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
    await rejectFiatWithdrawal(db, id, hold.code);
    throw invalid(WALLET_ERRORS.insufficientBalance);
  }
  await markFiatProcessing(db, id);
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
    await noteFiatError(db, id, String(err).slice(0, 300));
    return { returnType: 'PROCESSING' as ReturnType, id };
  }
  return { returnType: await apply(deps, id, result), id };
}

/** Applies the bank's answer through the core: settle on FINISHED, release on ERROR, nothing while PROCESSING. */
async function apply(deps: FiatDeps, id: number, result: PayoutResult): Promise<ReturnType> {
  await setFiatBankRef(deps.db, id, result.bankRef);
  if (result.status === 'PROCESSING') return 'PROCESSING';
  const finished = result.status === 'FINISHED';
  const outcome = await deps.core.sequencer.submit(
    finished
      ? { type: 'SettleWithdrawal', withdrawalId: `f${id}`, fee: 0n }
      : { type: 'ReleaseWithdrawal', withdrawalId: `f${id}` },
    `fiat-${finished ? 'settle' : 'release'}:${id}`,
  );
  if (!outcome.ok) throw new Error(`fiat withdrawal ${id}: ${outcome.code}`);
  await finishFiatWithdrawal(deps.db, id, finished ? 'succeed' : 'failed', result.reason ?? null);
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
  const state = await fiatState(deps.db, id, userId);
  if (state === undefined) throw notFound();
  if (state === 'succeed') return { returnType: 'FINISHED' };
  if (state !== 'processing') return { returnType: 'ERROR' };
  return { returnType: await apply(deps, id, await deps.bank.status(fiatReference(id))) };
}

/** The wire shape of a fiat withdrawal row. */
function fiatEntity(row: FiatWithdrawalRow) {
  return {
    ...row,
    id: Number(row.id),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The user's fiat withdrawals, newest first, with the total count. */
export async function listFiat(db: pg.Pool, userId: string, page: number, limit: number) {
  const { total, rows } = await fiatPage(db, userId, limit, (page - 1) * limit);
  return { total, items: rows.map(fiatEntity) };
}

/** One fiat withdrawal of the user, for the answer of a create. */
export async function findFiat(db: pg.Pool, userId: string, id: number) {
  const row = await fiatRow(db, userId, id);
  return row ? fiatEntity(row) : null;
}
