import {
  formatUnits,
  parseUnits,
  SANCTIONS_ERRORS,
  toUnits,
  WALLET_ERRORS,
  type WithdrawInput,
  withdrawMinimum,
} from '@exchange/shared';
import type pg from 'pg';
import type { MailPort } from '../../adapters/mail/port.ts';
import type { TravelRulePort } from '../../adapters/travel-rule/port.ts';
import { type Clock, dateOf } from '../../clock.ts';
import type { WithdrawReviewRules } from '../../config.ts';
import type { Core } from '../../core/index.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { sanctionsFrozen } from '../compliance/sanctions/screening.ts';
import { DEFAULT_TRAVEL_RULE, type TravelRuleConfig } from '../compliance/travel-rule/config.ts';
import { deliverTravelRule } from '../compliance/travel-rule/delivery.ts';
import { isReturn } from '../compliance/travel-rule/incoming-return.ts';
import {
  type TravelRuleRecord,
  travelRuleForWithdrawal,
} from '../compliance/travel-rule/withdrawal-check.ts';
import type { ServerKeys } from '../identity/crypto.ts';
import type { RequestOrigin } from '../identity/registration.ts';
import type { UserRecord } from '../identity/users-repository.ts';
import { addressOwner } from './addresses.ts';
import { findBeneficiary } from './beneficiaries.ts';
import type { ChainRegistry } from './chains.ts';
import { checkTotp } from './totp-check.ts';
import { reviewReasons } from './withdraw-review.ts';
import {
  insertWithdrawal,
  moveWithdrawal,
  succeedInternalWithdrawal,
  withdrawHoldUntil,
  withdrawNetwork,
} from './withdrawals-repository.ts';

export interface WithdrawDeps {
  db: pg.Pool;
  keys: ServerKeys;
  core: Core;
  chains: ChainRegistry;
  mail: MailPort;
  /** Hours withdrawals wait after a password or 2FA change. */
  holdHours: number;
  /** The app's clock (clock.ts): the hold is measured on it. */
  clock: Clock;
  /** When a withdrawal waits for staff review besides its limits. */
  review: WithdrawReviewRules;
  /** A withdrawal changed state (for the private `withdraw` stream). */
  onChange(userId: number, withdrawalId: number): void;
  /** A deposit was credited (for the receiver's private `deposit` stream): the receiving side of an internal transfer. */
  onDeposit?(userId: number, depositId: number): void;
  /** The travel rule's settings (the defaults when not given). */
  travelRule?: TravelRuleConfig;
  /** Reaches the beneficiary's provider with the travel-rule message (none: such withdrawals wait for review). */
  travelRulePort?: TravelRulePort;
  /** Checks the authenticator code (replaced only by tests that measure something else). */
  verifyTotp?: (user: UserRecord, code: string) => Promise<void>;
}

/** What the withdrawal hold is measured with: the user's changes, the hold's hours, and now on the app's clock. */
export type WithdrawHold = Pick<WithdrawDeps, 'db' | 'holdHours' | 'clock'>;

/** What `GET /account/withdraw_permission` answers. */
export interface WithdrawPermission {
  allowed: boolean;
  level: number;
  otp: boolean;
  hold_until: string | null;
  /** The code a withdrawal would be refused with now; null when allowed. */
  reason: typeof WALLET_ERRORS.withdrawNotPermitted | typeof SANCTIONS_ERRORS.frozen | null;
}

/**
 * Whether the user may withdraw now, and why not (GET /account/withdraw_permission). Withdrawals wait `holdHours`
 * after a password or 2FA change (beyond the spec: someone who took over a session cannot cash out at once), and
 * a sanctions screening hit freezes them until compliance decides it (issue 33). The freeze is named before the
 * hold: a hold ends by itself within a day, the freeze does not, and the customer has to know whom to ask.
 */
export async function withdrawPermission(
  { db, holdHours, clock }: WithdrawHold,
  user: UserRecord,
): Promise<WithdrawPermission> {
  const now = dateOf(clock);
  const until = await withdrawHoldUntil(db, user.id, holdHours);
  const holdUntil: Date | null = until && until > now ? until : null;
  const verified = user.level >= 3 && user.otp;
  let reason: WithdrawPermission['reason'] = null;
  if (!verified) reason = WALLET_ERRORS.withdrawNotPermitted;
  else if (await sanctionsFrozen(db, user.id)) reason = SANCTIONS_ERRORS.frozen;
  else if (holdUntil !== null) reason = WALLET_ERRORS.withdrawNotPermitted;
  return {
    allowed: reason === null,
    level: user.level,
    otp: user.otp,
    hold_until: holdUntil ? holdUntil.toISOString() : null,
    reason,
  };
}

/**
 * Refuses with 403 and the {@link withdrawPermission} reason a user who may not move money out now: every way out
 * (withdrawal, transfer, bank and mass payout) asks here, so they refuse alike and as the permission says.
 */
export async function requireWithdrawPermission(hold: WithdrawHold, user: UserRecord): Promise<void> {
  const { reason } = await withdrawPermission(hold, user);
  if (reason !== null) throw new AppError(403, [reason]);
}

/**
 * Validates a withdrawal (docs/wallet.md#validation and issue rules), checks the TOTP code, and holds the amount through the core.
 * An address that belongs to another user of the exchange is settled internally at once, without a fee and
 * without touching a chain; an external one waits for the processor to broadcast it.
 */
export async function createWithdrawal(
  deps: WithdrawDeps,
  user: UserRecord,
  input: WithdrawInput,
  origin: RequestOrigin | null = null,
) {
  const { db, core } = deps;
  await requireWithdrawPermission(deps, user);
  // Without a network, the beneficiary's: it was saved for one network only.
  let named: Awaited<ReturnType<typeof findBeneficiary>> | undefined;
  let blockchainKey = input.blockchain_key;
  if (blockchainKey === undefined) {
    named = await findBeneficiary(db, user.id, input.beneficiary_id);
    blockchainKey = named.blockchain_key;
  }
  const network = await withdrawNetwork(db, input.currency, blockchainKey);
  const chain = deps.chains.get(blockchainKey)?.chain;
  if (!network || !chain) throw invalid(WALLET_ERRORS.networkNotFound);
  if (!network.withdraw_enabled) throw invalid(WALLET_ERRORS.withdrawDisabled);
  const beneficiary = named ?? (await findBeneficiary(db, user.id, input.beneficiary_id));
  if (
    beneficiary.state !== 'active' ||
    beneficiary.currency_id !== input.currency ||
    beneficiary.blockchain_key !== blockchainKey
  )
    throw invalid(WALLET_ERRORS.beneficiaryNotActive);
  // Saved before addresses were checked with their checksums: it must be saved again, correctly.
  if (chain.normalizeAddress(beneficiary.address) !== beneficiary.address)
    throw invalid(WALLET_ERRORS.beneficiaryAddressInvalid);
  const precision: number = network.precision;
  const parsed = parseUnits(input.amount, precision);
  if (!parsed.ok || parsed.units <= 0n) throw invalid(WALLET_ERRORS.amountInvalid);
  const amount = parsed.units;
  const recipient = await addressOwner(db, blockchainKey, beneficiary.address);
  if (recipient === Number(user.id)) throw invalid(WALLET_ERRORS.beneficiaryAddressInvalid);
  const internal = recipient !== null;
  const info = {
    min_withdraw_amount: network.min_withdraw_amount,
    withdraw_fee: network.withdraw_fee,
    blockchain_key: blockchainKey,
  };
  const minimum = withdrawMinimum(info, precision, internal);
  if (amount < minimum) {
    throw new AppError(422, [WALLET_ERRORS.amountTooSmall], {
      details: { min: formatUnits(minimum, precision), currency: input.currency },
    });
  }
  if (core.sequencer.state.balance(Number(user.id), input.currency).balance < amount)
    throw invalid(WALLET_ERRORS.insufficientBalance);
  // Before the code is spent: a refused self-hosted address leaves the code usable for the retry after the proof.
  const travelRule = await travelRuleForWithdrawal(
    { db, core, config: deps.travelRule ?? DEFAULT_TRAVEL_RULE },
    user,
    { currency: input.currency, amount, recipient, beneficiary },
  );
  if (deps.verifyTotp) await deps.verifyTotp(user, input.otp);
  else await checkTotp(deps, user, input.otp, WALLET_ERRORS.otpInvalid);

  return placeWithdrawal(
    deps,
    user,
    {
      currency: input.currency,
      blockchainKey,
      beneficiaryId: Number(beneficiary.id),
      rid: beneficiary.address,
      memo: beneficiary.memo,
      amount,
      fee: internal ? 0n : toUnits(network.withdraw_fee, precision),
      precision,
      recipient,
      travelRule,
    },
    origin,
  );
}

/** A withdrawal that passed its checks, about to be recorded and held. */
export interface CheckedWithdrawal {
  currency: string;
  blockchainKey: string;
  /** The saved address it goes to; null for a transfer to a user named by email or phone. */
  beneficiaryId: number | null;
  /** Where it goes, as the history shows it: an address, or the recipient's email or phone number. */
  rid: string;
  memo: string | null;
  amount: bigint;
  fee: bigint;
  precision: number;
  /** The user here it goes to (an internal transfer, settled at once), or null for an outside address. */
  recipient: number | null;
  /** The originator and beneficiary information it carries (IVMS 101), when it goes to a saved address. */
  travelRule?: TravelRuleRecord;
}

/**
 * Records a checked withdrawal, holds its amount through the core, and sends it to staff review or on its way:
 * an internal one settles at once. Returns its id. The request is written to the user's security log
 * (`withdraw.request`, topic `withdraw`) by the same statement that records the withdrawal, with where it came
 * from (`origin`; none for a call that has no request).
 */
export async function placeWithdrawal(
  deps: WithdrawDeps,
  user: UserRecord,
  w: CheckedWithdrawal,
  origin: RequestOrigin | null = null,
): Promise<number> {
  const { db, core } = deps;
  const id = Number(
    await insertWithdrawal(db, {
      userId: user.id,
      currency: w.currency,
      blockchainKey: w.blockchainKey,
      beneficiaryId: w.beneficiaryId,
      rid: w.rid,
      memo: w.memo,
      amount: formatUnits(w.amount, w.precision),
      fee: formatUnits(w.fee, w.precision),
      recipient: w.recipient,
      ip: origin?.ip ?? null,
      userAgent: origin?.userAgent ?? null,
      logData: JSON.stringify({
        currency: w.currency,
        blockchain_key: w.blockchainKey,
        amount: formatUnits(w.amount, w.precision),
        rid: w.rid,
        beneficiary_id: w.beneficiaryId,
      }),
      travelRule: w.travelRule ? JSON.stringify(w.travelRule.payload) : null,
      travelRuleStatus: w.travelRule?.status ?? null,
      at: dateOf(deps.clock),
    }),
  );
  const hold = await core.sequencer.submit(
    {
      type: 'HoldWithdrawal',
      user: Number(user.id),
      currency: w.currency,
      amount: w.amount,
      withdrawalId: `w${id}`,
    },
    `withdraw-hold:${id}`,
  );
  if (!hold.ok) {
    await setState(db, id, 'rejected', hold.code);
    throw invalid(WALLET_ERRORS.insufficientBalance);
  }
  const travelRuleReasons = await deliverTravelRule(
    { db, port: deps.travelRulePort, config: deps.travelRule ?? DEFAULT_TRAVEL_RULE },
    id,
    {
      record: w.travelRule,
      currency: w.currency,
      network: w.blockchainKey,
      amount: formatUnits(w.amount, w.precision),
      address: w.rid,
    },
  );
  const reasons = [
    ...(await reviewReasons(db, deps.review, {
      userId: Number(user.id),
      level: user.level,
      currency: w.currency,
      precision: w.precision,
      amount: w.amount,
      beneficiaryId: w.beneficiaryId,
      now: dateOf(deps.clock),
    })),
    ...travelRuleReasons,
  ];
  if (reasons.length > 0) {
    await setState(db, id, 'under_review', null, { reasons });
  } else {
    await setState(db, id, 'accepted');
    if (w.recipient !== null) await settleInternal(deps, id, w.recipient);
  }
  deps.onChange(Number(user.id), id);
  return id;
}

/**
 * Internal transfer: the held amount goes straight to the other user; no fee (docs/wallet.md#validation). Safe to repeat: the core
 * applies the settlement once per withdrawal, and the state and the receiver's deposit change once.
 */
export async function settleInternal(deps: WithdrawDeps, id: number, recipient: number): Promise<void> {
  const result = await deps.core.sequencer.submit(
    { type: 'SettleWithdrawal', withdrawalId: `w${id}`, fee: 0n, toUser: recipient },
    `withdraw-settle:${id}`,
  );
  if (!result.ok) throw new Error(`internal withdrawal ${id} could not settle: ${result.code}`);
  // The receiver's deposit record comes with the success, in one statement: his history shows what his balance got.
  const deposit = await succeedInternalWithdrawal(deps.db, id, recipient, dateOf(deps.clock));
  if (deposit !== undefined) deps.onDeposit?.(recipient, Number(deposit));
}

/**
 * Gives a withdrawal's held amount back to its user through the core: once, however often it is asked. A
 * travel-rule return gives it back to `external` instead: those funds were never the user's. Which one it is, is
 * read here from the withdrawal's row, never left to the caller, so no path can credit a return to the customer.
 */
export async function releaseHold({ core, db }: { core: Core; db: pg.Pool }, id: number): Promise<void> {
  const toExternal = await isReturn(db, id);
  const result = await core.sequencer.submit(
    { type: 'ReleaseWithdrawal', withdrawalId: `w${id}`, ...(toExternal ? { toExternal: true } : {}) },
    `withdraw-release:${id}`,
  );
  if (!result.ok) throw new Error(`withdrawal ${id} could not be released: ${result.code}`);
}

/** Moves a withdrawal to `state`, only from the states that lead there. */
export async function setState(
  db: pg.Pool,
  id: number,
  state: string,
  error: string | null = null,
  extra: { txid?: string; height?: number; reasons?: readonly string[] } = {},
): Promise<boolean> {
  const from: Record<string, string[]> = {
    under_review: ['prepared'],
    accepted: ['prepared', 'under_review'],
    rejected: ['prepared', 'under_review'],
    processing: ['accepted'],
    confirming: ['processing', 'errored'],
    succeed: ['accepted', 'confirming'],
    failed: ['processing', 'confirming'],
    errored: ['processing'],
    canceled: ['accepted', 'errored'],
  };
  return moveWithdrawal(db, id, state, from[state] ?? [], {
    error,
    txid: extra.txid ?? null,
    height: extra.height ?? null,
    reasons: extra.reasons ?? null,
  });
}
