import {
  ADMIN_ERRORS,
  type AdminBankTransfer,
  BANK_DEPOSIT_ERRORS,
  type BankDeposit,
  toUnits,
} from '@exchange/shared';
import type pg from 'pg';
import type { CollectionAccount, IncomingCreditTransfer } from '../../adapters/bank/port.ts';
import { type Clock, dateOf } from '../../clock.ts';
import type { Core } from '../../core/index.ts';
import { withTransaction } from '../../db/pool.ts';
import { AppError, invalid } from '../../http/errors.ts';
import type { Staff } from '../admin/access.ts';
import { recordStaffAction } from '../admin/trail.ts';
import { isVerifiedBusiness } from '../business/account-type.ts';
import { uidOfUser, userIdOfUid } from '../identity/users-repository.ts';
import { referenceOf } from './reference.ts';
import {
  adminTransfer,
  claimForCredit,
  markReturned,
  ownerOfReference,
  queueTransfer,
  recordCredit,
  recordTransfer,
  referenceFor,
  type TransferRow,
} from './repository.ts';

/** What the bank deposit service needs. */
export interface BankDepositDeps {
  db: pg.Pool;
  core: Core;
  /** The app's clock (clock.ts): credits and staff decisions are stamped on it. */
  clock: Clock;
  /** The exchange's account at the bank, shown to customers. */
  collection: CollectionAccount;
  /** The secret the bank signs its notifications with. */
  webhookSecret: string;
  /** Tells the user's open pages that a deposit arrived (the private `deposit` stream). */
  onDeposit(userId: number, depositId: number): void;
}

/** Ledger reference of a transfer's credit: the core runs each once. */
const creditRef = (id: string) => `bank-deposit:${id}`;

/**
 * Where a verified business sends EUR, with its own reference (made on first ask). Anyone else is refused: a
 * personal account, or a business not yet verified, has no reference.
 */
export async function depositInstructions(deps: BankDepositDeps, userId: string): Promise<BankDeposit> {
  if (!(await isVerifiedBusiness(deps.db, userId)))
    throw new AppError(403, [BANK_DEPOSIT_ERRORS.businessOnly]);
  return {
    currency: 'eur',
    method: 'sepa',
    beneficiary: deps.collection.name,
    iban: deps.collection.iban,
    bic: deps.collection.bic,
    reference: await referenceFor(deps.db, userId),
  };
}

/** The outcome of one reported transfer. */
export type ReceiveOutcome = 'credited' | 'queued' | 'duplicate';

/**
 * One incoming transfer the bank reported: recorded once (by the bank's transaction id), then credited to the
 * verified business whose reference it carries, or put in the operator queue with the reason. A report of a
 * transfer already credited, queued or returned changes nothing; one whose crediting was interrupted resumes it.
 */
export async function receiveTransfer(
  deps: BankDepositDeps,
  transfer: IncomingCreditTransfer,
): Promise<ReceiveOutcome> {
  const { row } = await recordTransfer(deps.db, transfer);
  if (row.state === 'crediting' && row.user_id) {
    await credit(deps, row, row.user_id, null);
    return 'credited';
  }
  if (row.state !== 'received') return 'duplicate';
  const reason = await queueReason(deps.db, row);
  if (typeof reason !== 'string') {
    await credit(deps, row, reason.userId, null);
    return 'credited';
  }
  await queueTransfer(deps.db, row.id, reason);
  return 'queued';
}

/** Whose the transfer is, or why nobody can say without an operator. */
async function queueReason(db: pg.Pool, row: TransferRow): Promise<{ userId: string } | string> {
  if (row.currency !== 'EUR') return 'wrong_currency';
  const found = referenceOf(row.creditor_reference, row.remittance_information);
  if (found === null) return 'missing_reference';
  if (found === 'invalid') return 'unknown_reference';
  const owner = await ownerOfReference(db, found.reference);
  if (!owner) return 'unknown_reference';
  // A reference stays with its account; if that account is no longer a verified business, an operator looks.
  if (!(await isVerifiedBusiness(db, owner))) return 'not_verified';
  return { userId: owner };
}

/**
 * Credits the transfer to `userId` through the core (a deposit, against the outside world, so the ledger stays
 * balanced), then records the deposit. The core runs `bank-deposit:<id>` once, so a retry after a crash between
 * the two credits nothing twice.
 */
async function credit(
  deps: BankDepositDeps,
  row: TransferRow,
  userId: string,
  decided: { staff: Staff; note: string } | null,
): Promise<void> {
  const claimed = await claimForCredit(
    deps.db,
    row.id,
    userId,
    decided ? { by: decided.staff.user.id, note: decided.note } : null,
    dateOf(deps.clock),
  );
  if (!claimed) throw invalid(BANK_DEPOSIT_ERRORS.notQueued);
  const amount = toUnits(claimed.amount, deps.core.units.precision('eur'));
  const result = await deps.core.sequencer.submit(
    { type: 'Credit', user: Number(userId), currency: 'eur', amount, kind: 'deposit' },
    creditRef(claimed.id),
  );
  if (!result.ok)
    throw new Error(`bank transfer ${claimed.id}: the core refused the credit (${result.code})`);
  const depositId = await withTransaction(deps.db, async (tx) => {
    const id = await recordCredit(tx, claimed, userId, dateOf(deps.clock));
    if (decided)
      await recordStaffAction(
        tx,
        decided.staff,
        'bank_transfer.assign',
        (await uidOfUser(tx, userId)) ?? null,
        {
          after: { bank_transfer: Number(claimed.id), amount: claimed.amount, deposit: id },
        },
      );
    return id;
  });
  deps.onDeposit(Number(userId), depositId);
}

/**
 * An operator credits a queued transfer to the account `uid` (any account: the sender may have paid for another
 * customer, or before its business was verified). Never to the operator's own account (403, and the database
 * refuses it too).
 */
export async function assignTransfer(
  deps: BankDepositDeps,
  staff: Staff,
  id: number,
  uid: string,
  note: string,
): Promise<AdminBankTransfer> {
  const userId = await userIdOfUid(deps.db, uid);
  if (userId === undefined) throw invalid(BANK_DEPOSIT_ERRORS.userUnknown);
  if (userId === String(staff.user.id)) throw new AppError(403, [ADMIN_ERRORS.ownAccount]);
  const row = (await adminTransfer(deps.db, id)) ?? null;
  if (row?.state !== 'queued') throw invalid(BANK_DEPOSIT_ERRORS.notQueued);
  await credit(
    deps,
    {
      id: String(id),
      bank_transaction_id: row.bank_transaction_id,
      amount: row.amount,
      currency: row.currency,
      debtor_iban: row.debtor_iban,
      remittance_information: row.remittance_information,
      creditor_reference: row.creditor_reference,
      state: 'queued',
      user_id: null,
    },
    userId,
    { staff, note },
  );
  return (await adminTransfer(deps.db, id)) as AdminBankTransfer;
}

/** An operator marks a queued transfer for return to its sender (the bank's return is done outside). */
export async function returnTransfer(
  deps: BankDepositDeps,
  staff: Staff,
  id: number,
  note: string,
): Promise<AdminBankTransfer> {
  await withTransaction(deps.db, async (tx) => {
    if (!(await markReturned(tx, id, staff.user.id, note, dateOf(deps.clock))))
      throw invalid(BANK_DEPOSIT_ERRORS.notQueued);
    await recordStaffAction(tx, staff, 'bank_transfer.return', `bank_transfer:${id}`, { after: { note } });
  });
  return (await adminTransfer(deps.db, id)) as AdminBankTransfer;
}
