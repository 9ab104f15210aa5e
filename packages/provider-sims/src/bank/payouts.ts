import { createHash } from 'node:crypto';
import type { BankPort, PayoutRequest, PayoutResult } from '@exchange/server/provider-kit';

/** A single payout the simulated bank pays at most this much (EUR); above it refuses, like a real limit. */
export const SIM_BANK_PAYOUT_LIMIT = 100_000n;

/**
 * The default bank: pays any valid IBAN at once, refuses payouts above its limit, and remembers every payout by
 * reference, so a repeated request is answered with the first outcome and never pays twice.
 */
export function createSimulatedBank(): BankPort {
  const payouts = new Map<string, PayoutResult>();
  return {
    async payout(request: PayoutRequest) {
      const known = payouts.get(request.reference);
      if (known) return known;
      const bankRef = `SIM-${createHash('sha256').update(request.reference).digest('hex').slice(0, 16).toUpperCase()}`;
      const whole = BigInt(request.amount.split('.')[0] ?? '0');
      const result: PayoutResult =
        whole >= SIM_BANK_PAYOUT_LIMIT
          ? { status: 'ERROR', bankRef, reason: 'amount above the payout limit' }
          : { status: 'FINISHED', bankRef };
      payouts.set(request.reference, result);
      return result;
    },
    async status(reference: string) {
      return payouts.get(reference) ?? { status: 'ERROR', bankRef: '', reason: 'unknown payout' };
    },
  };
}
