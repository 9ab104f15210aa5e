import { toUnits } from '@exchange/shared';
import { BroadcastUnknownError } from '../../adapters/chains/port.ts';
import { SignerRefusedError } from '../../adapters/chains/signing.ts';
import { finishReturns } from '../compliance/travel-rule/incoming-return.ts';
import { hotWallet } from './addresses.ts';
import {
  confirmingWithdrawals,
  erroredInterrupted,
  markWithdrawalFailed,
  rejectedStillHeld,
  resolvedAsFailed,
  toBroadcast,
  unsettledInternal,
} from './withdrawal-processing-repository.ts';
import { releaseHold, setState, settleInternal, type WithdrawDeps } from './withdrawals.ts';

/**
 * Pays accepted external withdrawals from the network's hot wallet and follows them to the confirmation
 * threshold. Each one is broadcast at most once: it is marked `processing` before the broadcast, and a
 * `processing` one found at start-up, or a broadcast whose outcome is unknown, becomes `errored` for an
 * operator; it is never resent automatically. Every money movement goes through the core with a client
 * command id, so repeating a step after a crash has no further effect.
 */
export class WithdrawalProcessor {
  constructor(private readonly deps: WithdrawDeps & { log: { warn(message: string): void } }) {}

  /** Withdrawals left `processing` by a previous run may have reached the chain: hand them to an operator. */
  async recoverInterrupted(): Promise<void> {
    for (const r of await erroredInterrupted(this.deps.db)) {
      this.deps.log.warn(
        `withdrawal ${r.id} was interrupted during broadcast: marked errored for an operator`,
      );
      this.deps.onChange(Number(r.user_id), Number(r.id));
    }
  }

  async tick(): Promise<void> {
    await this.finishDecided();
    await this.broadcast();
    await this.follow();
    await this.resolved();
  }

  /**
   * Finishes decisions a crash interrupted: a rejected withdrawal whose hold the core still keeps gets its funds
   * back, and an accepted internal transfer not settled within a minute is settled. Both steps are idempotent
   * (one core command id per withdrawal), so finishing one that a request is finishing too changes nothing.
   */
  private async finishDecided(): Promise<void> {
    const { db, core } = this.deps;
    for (const w of await rejectedStillHeld(db)) {
      await releaseHold({ core, db }, Number(w.id));
      this.deps.onChange(Number(w.user_id), Number(w.id));
    }
    for (const w of await unsettledInternal(db)) {
      await settleInternal(this.deps, Number(w.id), Number(w.internal_user_id));
      this.deps.onChange(Number(w.user_id), Number(w.id));
    }
    // Travel-rule returns recorded but not held when a crash came.
    await finishReturns(this.deps);
  }

  /** Errored withdrawals an operator found were never sent: the funds go back to the user. */
  private async resolved(): Promise<void> {
    for (const w of await resolvedAsFailed(this.deps.db)) {
      await this.fail(Number(w.id), 'not sent (operator)', 'errored');
      this.deps.onChange(Number(w.user_id), Number(w.id));
    }
  }

  private async broadcast(): Promise<void> {
    const { db, core, chains } = this.deps;
    for (const w of await toBroadcast(db)) {
      const id = Number(w.id);
      const network = chains.get(w.blockchain_key);
      if (!network) continue;
      if (!(await setState(db, id, 'processing'))) continue;
      const precision = core.units.precision(w.currency_id);
      try {
        const hot = await hotWallet(db, network);
        const sent = await network.chain.send({
          purpose: { kind: 'withdrawal', withdrawalId: id },
          from: hot,
          to: w.rid,
          currency: w.currency_id,
          amount: toUnits(w.amount, precision) - toUnits(w.fee, precision),
          memo: w.memo,
        });
        await setState(db, id, 'confirming', null, { txid: sent.txid });
      } catch (err) {
        if (err instanceof BroadcastUnknownError || err instanceof SignerRefusedError) {
          // Unknown outcome: never resend. A refusal (a daily cap, say): nothing was signed, an operator decides.
          this.deps.log.warn(`withdrawal ${id}: ${err.message}; marked errored for an operator`);
          await setState(db, id, 'errored', err.message.slice(0, 300));
        } else {
          await this.fail(id, `broadcast refused: ${String(err).slice(0, 300)}`, 'processing');
        }
      }
      this.deps.onChange(Number(w.user_id), id);
    }
  }

  private async follow(): Promise<void> {
    const { db, core, chains } = this.deps;
    for (const w of await confirmingWithdrawals(db)) {
      const id = Number(w.id);
      const network = chains.get(w.blockchain_key);
      if (!network) continue;
      const status = await network.chain.transaction(w.txid);
      if (status.state === 'failed') {
        await this.fail(id, 'the transaction failed on chain', 'confirming');
      } else if (status.state === 'confirmed' && status.confirmations >= network.confirmations) {
        const fee = toUnits(w.fee, core.units.precision(w.currency_id));
        const result = await core.sequencer.submit(
          { type: 'SettleWithdrawal', withdrawalId: `w${id}`, fee },
          `withdraw-settle:${id}`,
        );
        if (!result.ok) throw new Error(`withdrawal ${id} could not settle: ${result.code}`);
        await setState(db, id, 'succeed', null, status.height === null ? {} : { height: status.height });
      } else {
        continue;
      }
      this.deps.onChange(Number(w.user_id), id);
    }
  }

  /**
   * The funds come back to the user: the hold is released through the core, then the state is `failed`. A
   * travel-rule return's go back to `external` (never credited): the deposit stays returned, for an operator.
   */
  private async fail(
    id: number,
    reason: string,
    from: 'processing' | 'confirming' | 'errored',
  ): Promise<void> {
    await releaseHold(this.deps, id);
    if (!(await markWithdrawalFailed(this.deps.db, id, reason, from)))
      this.deps.log.warn(`withdrawal ${id}: unexpected state while failing it`);
  }
}
