import { formatUnits, toUnits } from '@exchange/shared';
import type pg from 'pg';
import type { SigningPurpose } from '../../adapters/chains/signing.ts';
import { DEPOSIT_ACCOUNT, HOT_ACCOUNT } from '../../adapters/chains/signing.ts';
import { LOCK_FAMILIES, lockForTransaction } from '../../db/locks.ts';
import { withTransaction } from '../../db/pool.ts';
import type { SignerConfig } from './config.ts';
import { logDecision, logSignedWithdrawal, signedToday, withdrawalToSign } from './repository.ts';

/**
 * What a transaction does, read by the signer from the transaction itself (never from what the caller says it
 * does): the accounts it spends from, what it pays to addresses that are not our hot wallet, and its fee.
 */
export interface Intent {
  network: string;
  purpose: SigningPurpose;
  /** The currency moved (for Bitcoin `btc`; a token's id for token transfers). */
  currency: string;
  /** The network's native currency, which pays the fee. */
  nativeCurrency: string;
  /** Accounts of the keys that sign (0 deposit addresses, 1 hot wallet). */
  fromAccounts: Set<number>;
  /** Payments to anything but our hot wallet, destinations in the chain's canonical form, amounts in currency units. */
  payments: { destination: string; amount: bigint }[];
  /** What goes to our hot wallet (sweeps, change), in currency units. */
  toHot: bigint;
  /** The most the transaction can cost in fees, in native units. */
  fee: bigint;
}

/** What a chain tells the policy: how to put an address in canonical form, and the address of a key. */
export interface ChainRules {
  canonical(address: string): string | null;
  depositAddress(index: number): string;
}

/** A refusal of the policy: `code` is the dotted reason, logged and answered with 403. */
export class PolicyRefusal extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

/** Refuses the request with `code` (a declared function, so that the compiler knows nothing runs after it). */
function refuse(code: string): never {
  throw new PolicyRefusal(code);
}

/**
 * The signer's policy: a transaction is signed only when it is exactly one of
 * - `withdrawal`: from the hot wallet, one payment, exactly the approved withdrawal's address and amount (less its
 *   fee), while it is being broadcast, within the network's daily cap, and never twice;
 * - `sweep`: from deposit addresses, everything to our hot wallet;
 * - `gas`: from the hot wallet, native coin to one of our deposit addresses, at most the gas cap;
 * - `cold`: from the hot wallet to the configured cold address of the network;
 * and its fee stays under the cap. Every decision is written to `signer_log` with its reason; `record` runs in the
 * same transaction as a withdrawal's once-only check, before the signature leaves the signer.
 */
export class SigningPolicy {
  constructor(
    private readonly db: pg.Pool,
    private readonly config: SignerConfig,
  ) {}

  /** Checks `intent`; resolves when it may be signed (and, for a withdrawal, records it as signed). */
  async approve(intent: Intent, rules: ChainRules, txid: string): Promise<void> {
    try {
      this.checkFee(intent);
      await this.checkPurpose(intent, rules, txid);
    } catch (err) {
      const reason = err instanceof PolicyRefusal ? err.code : 'signer.internal_error';
      await this.log(this.db, intent, 'refused', reason, txid);
      throw err instanceof PolicyRefusal ? err : new PolicyRefusal(reason);
    }
  }

  private checkFee(intent: Intent): void {
    const cap = this.config.maxFees.get(intent.nativeCurrency);
    if (cap !== undefined && intent.fee > toUnits(cap, precisionOfNative(intent.nativeCurrency)))
      refuse('signer.fee.too_high');
  }

  private async checkPurpose(intent: Intent, rules: ChainRules, txid: string): Promise<void> {
    const { purpose, payments } = intent;
    const only = (account: number) =>
      intent.fromAccounts.size === 1 && intent.fromAccounts.has(account)
        ? undefined
        : refuse('signer.source.not_allowed');
    switch (purpose.kind) {
      case 'sweep':
        only(DEPOSIT_ACCOUNT);
        if (payments.length > 0) refuse('signer.sweep.not_to_hot_wallet');
        await this.log(this.db, intent, 'signed', null, txid);
        return;
      case 'gas': {
        only(HOT_ACCOUNT);
        const payment = single(payments);
        if (intent.currency !== intent.nativeCurrency) refuse('signer.gas.not_native');
        if (payment.destination !== rules.canonical(rules.depositAddress(purpose.depositIndex)))
          refuse('signer.gas.not_our_address');
        const cap = this.config.maxGas.get(intent.nativeCurrency);
        if (cap === undefined || payment.amount > toUnits(cap, precisionOfNative(intent.nativeCurrency)))
          refuse('signer.gas.too_much');
        await this.log(this.db, intent, 'signed', null, txid);
        return;
      }
      case 'cold': {
        only(HOT_ACCOUNT);
        const payment = single(payments);
        const cold = this.config.coldAddresses.get(intent.network);
        if (!cold) refuse('signer.cold.not_configured');
        if (payment.destination !== rules.canonical(cold as string)) refuse('signer.cold.wrong_address');
        await this.log(this.db, intent, 'signed', null, txid);
        return;
      }
      case 'withdrawal':
        only(HOT_ACCOUNT);
        await this.checkWithdrawal(intent, purpose.withdrawalId, single(payments), rules, txid);
        return;
      default:
        refuse('signer.purpose.unknown');
    }
  }

  private async checkWithdrawal(
    intent: Intent,
    withdrawalId: number,
    payment: { destination: string; amount: bigint },
    rules: ChainRules,
    txid: string,
  ): Promise<void> {
    if (!Number.isSafeInteger(withdrawalId) || withdrawalId <= 0) refuse('signer.withdrawal.not_found');
    await withTransaction(this.db, async (tx) => {
      // One decision per network at a time: the daily sum cannot be raced past its cap.
      await lockForTransaction(tx, [LOCK_FAMILIES.signerNetwork, intent.network]);
      const w = await withdrawalToSign(tx, withdrawalId);
      if (!w) refuse('signer.withdrawal.not_found');
      if (w.state !== 'processing' || w.internal_user_id !== null) refuse('signer.withdrawal.not_approved');
      if (w.blockchain_key !== intent.network || w.currency_id !== intent.currency)
        refuse('signer.withdrawal.wrong_currency');
      if (rules.canonical(w.rid) !== payment.destination) refuse('signer.withdrawal.wrong_address');
      const due = toUnits(w.amount, w.precision) - toUnits(w.fee, w.precision);
      if (payment.amount !== due) refuse('signer.withdrawal.wrong_amount');
      const cap = this.config.dailyCaps.get(intent.currency);
      if (cap !== undefined) {
        const today = await signedToday(tx, intent.network, intent.currency);
        if (toUnits(today, w.precision) + payment.amount > toUnits(cap, w.precision))
          refuse('signer.withdrawal.daily_cap');
      }
      const signed = await logSignedWithdrawal(tx, {
        network: intent.network,
        reference: `withdrawal:${withdrawalId}`,
        currency: intent.currency,
        amount: formatUnits(payment.amount, w.precision),
        destination: payment.destination,
        txid,
      });
      if (!signed) refuse('signer.withdrawal.already_signed');
    });
  }

  private async log(
    q: pg.Pool,
    intent: Intent,
    decision: 'signed' | 'refused',
    reason: string | null,
    txid: string,
  ): Promise<void> {
    const purpose = intent.purpose;
    const payment = intent.payments[0];
    await logDecision(q, {
      network: intent.network,
      purpose: purpose.kind,
      reference: purpose.kind === 'withdrawal' ? `withdrawal:${purpose.withdrawalId}` : null,
      decision,
      reason,
      currency: intent.currency,
      destination: payment?.destination ?? null,
      txid,
    });
  }
}

function single<T>(payments: T[]): T {
  if (payments.length !== 1) refuse('signer.payment.not_single');
  return payments[0] as T;
}

/** Precision of a native currency (the fee caps are in its units). */
function precisionOfNative(currency: string): number {
  const known: Record<string, number> = { btc: 8, eth: 18, trx: 6 };
  const precision = known[currency];
  if (precision === undefined) throw new PolicyRefusal('signer.network.unknown_native');
  return precision;
}
