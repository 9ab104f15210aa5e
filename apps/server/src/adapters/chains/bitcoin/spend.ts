import { hex } from '@scure/base';
import type pg from 'pg';
import { LOCK_FAMILIES, lockForTransaction } from '../../../db/locks.ts';
import { type Tx, withTransaction } from '../../../db/pool.ts';
import {
  BroadcastUnknownError,
  type KeyScheme,
  type SendRequest,
  type SweepRequest,
  type SweepResult,
} from '../port.ts';
import type { SignerPort, SigningPurpose, WalletKey } from '../signing.ts';
import {
  type BuiltTransaction,
  buildPsbt,
  checkSigned,
  dustThreshold,
  estimateVsize,
  feeFor,
  outputScript,
  type ScureNetwork,
} from './build.ts';
import { type BitcoinRpc, btcToSats, RPC_VERIFY_ALREADY_IN_CHAIN, RpcError } from './rpc.ts';
import type { Utxo, UtxoStore } from './utxos-repository.ts';

/**
 * Spending our outputs: coin selection, fee, PSBT, the signer, broadcast. One address's outputs are spent by one
 * caller at a time (a transaction-scoped advisory lock per address, held until the broadcast is recorded), so two
 * sends never pick the same output.
 */

export interface SpenderDeps {
  key: string;
  rpc: BitcoinRpc;
  db: pg.Pool;
  utxos: UtxoStore;
  signer: SignerPort;
  network: ScureNetwork;
  keyScheme: KeyScheme;
  /** Used when the node has no fee estimate, sat/kvB. */
  fallbackSatPerKvB: bigint;
  isOurs(addresses: string[]): Promise<Set<string>>;
}

/** Core's minimum relay fee rate (1 sat/vB): a lower estimate would be refused. */
const MIN_RELAY_SAT_PER_KVB = 1000n;
/** The confirmation target asked of estimatesmartfee. */
const CONF_TARGET = 6;

type Outcome<T> = { ok: T } | { unknown: unknown };

export function createSpender(deps: SpenderDeps) {
  const { rpc, utxos } = deps;

  /** sat/kvB from estimatesmartfee, or the fallback when the node has no estimate. */
  async function feeRate(): Promise<bigint> {
    const answer = (await rpc.call('estimatesmartfee', [CONF_TARGET])) as {
      feerate?: unknown;
      errors?: unknown;
    };
    const rate = answer.feerate === undefined ? deps.fallbackSatPerKvB : btcToSats(answer.feerate);
    return rate < MIN_RELAY_SAT_PER_KVB ? MIN_RELAY_SAT_PER_KVB : rate;
  }

  /** Outputs of `addresses` the node still has unspent (gettxout, mempool included); the others are marked gone. */
  async function live(q: Tx, addresses: string[]): Promise<Utxo[]> {
    const usable: Utxo[] = [];
    for (const utxo of await utxos.unspent(q, addresses)) {
      const out = await rpc.call('gettxout', [utxo.txid, utxo.vout, true]);
      if (out === null) await utxos.markGone(q, utxo);
      else usable.push(utxo);
    }
    return usable;
  }

  /** Signs, checks and broadcasts; records the spend, the transaction and our new outputs once it may be out. */
  async function signAndBroadcast(
    q: Tx,
    purpose: SigningPurpose,
    inputs: { utxo: Utxo; key: WalletKey }[],
    built: BuiltTransaction,
    ours: { vout: number; address: string }[],
  ): Promise<Outcome<string>> {
    const signed = await deps.signer.signBitcoin({
      network: deps.key,
      purpose,
      psbt: built.psbt,
      keys: inputs.map((i) => i.key),
    });
    const raw = checkSigned(built, signed);
    let outcome: Outcome<string>;
    try {
      await rpc.call('sendrawtransaction', [raw]);
      outcome = { ok: built.txid };
    } catch (error) {
      if (error instanceof RpcError && error.code !== RPC_VERIFY_ALREADY_IN_CHAIN) {
        // The node read it and refused it: nothing was sent.
        throw new Error(`${deps.key}: node refused ${built.txid}: ${error.code} ${error.rpcMessage}`);
      }
      outcome =
        error instanceof RpcError
          ? { ok: built.txid }
          : { unknown: new Error(`${built.txid}: ${(error as Error).message}`) };
    }
    // Sent or perhaps sent: its inputs must not be picked again; its outputs to us are ours until the node says not.
    await utxos.markSpent(
      q,
      inputs.map((i) => i.utxo),
      built.txid,
    );
    await utxos.rememberBroadcast(q, built.txid, built.outputs.length);
    await utxos.record(
      q,
      ours.map(({ vout, address }) => {
        const output = built.outputs[vout] as BuiltTransaction['outputs'][number];
        return { txid: built.txid, vout, address, amount: output.amount, script: hex.encode(output.script) };
      }),
      null,
    );
    return outcome;
  }

  async function lockAddresses(q: Tx, addresses: string[]): Promise<void> {
    for (const address of [...new Set(addresses)].sort()) {
      await lockForTransaction(q, [LOCK_FAMILIES.bitcoinAddress, `${deps.key}:${address}`]);
    }
  }

  function settle<T>(outcome: Outcome<T>): T {
    if ('unknown' in outcome) throw new BroadcastUnknownError(outcome.unknown);
    return outcome.ok;
  }

  return {
    /** One payment from `from` (the hot wallet) to `to`, change back to `from` unless it would be dust. */
    async send(request: SendRequest): Promise<{ txid: string }> {
      if (request.amount <= 0n) throw new Error(`${deps.key}: amount must be positive`);
      const payScript = outputScript(request.to, deps.network);
      if (request.amount < dustThreshold(payScript))
        throw new Error(`${deps.key}: ${request.amount} sat is dust for ${request.to}`);
      const changeScript = outputScript(request.from.address, deps.network);
      const rate = await feeRate();
      const toIsOurs = (await deps.isOurs([request.to])).has(request.to);
      const outcome = await withTransaction(deps.db, async (q) => {
        await lockAddresses(q, [request.from.address]);
        const selected: Utxo[] = [];
        let total = 0n;
        let fee = 0n;
        let change = 0n;
        for (const utxo of await live(q, [request.from.address])) {
          selected.push(utxo);
          total += utxo.amount;
          const withChange = feeFor(estimateVsize(selected.length, [payScript, changeScript]), rate);
          const withoutChange = feeFor(estimateVsize(selected.length, [payScript]), rate);
          if (
            total >= request.amount + withChange &&
            total - request.amount - withChange >= dustThreshold(changeScript)
          ) {
            fee = withChange;
            change = total - request.amount - withChange;
            break;
          }
          if (total >= request.amount + withoutChange) {
            // Change would be dust: it goes to the fee.
            fee = total - request.amount;
            change = 0n;
            break;
          }
        }
        if (fee === 0n)
          throw new Error(
            `${deps.key}: insufficient funds at ${request.from.address} for ${request.amount} sat plus fee`,
          );
        const outputs = [{ script: payScript, amount: request.amount }];
        if (change > 0n) outputs.push({ script: changeScript, amount: change });
        const built = buildPsbt(selected, outputs);
        const ours = [
          ...(toIsOurs ? [{ vout: 0, address: request.to }] : []),
          ...(change > 0n ? [{ vout: 1, address: request.from.address }] : []),
        ];
        return signAndBroadcast(
          q,
          request.purpose,
          selected.map((utxo) => ({ utxo, key: request.from })),
          built,
          ours,
        );
      });
      return { txid: settle(outcome) };
    },

    /** Every output of the `from` addresses into one output to `to`, less the fee; nothing (or dust) → no transfer. */
    async sweep(request: SweepRequest): Promise<SweepResult> {
      const toScript = outputScript(request.to, deps.network);
      const rate = await feeRate();
      const keys = new Map(request.from.map((key) => [key.address, key]));
      const outcome = await withTransaction(deps.db, async (q): Promise<Outcome<SweepResult>> => {
        await lockAddresses(q, [...keys.keys()]);
        const inputs = (await live(q, [...keys.keys()])).map((utxo) => ({
          utxo,
          key: keys.get(utxo.address) as WalletKey,
        }));
        if (inputs.length === 0) return { ok: { transfers: [] } };
        const total = inputs.reduce((sum, i) => sum + i.utxo.amount, 0n);
        const amount = total - feeFor(estimateVsize(inputs.length, [toScript]), rate);
        if (amount < dustThreshold(toScript)) return { ok: { transfers: [] } };
        const built = buildPsbt(
          inputs.map((i) => i.utxo),
          [{ script: toScript, amount }],
        );
        const sent = await signAndBroadcast(q, { kind: 'sweep' }, inputs, built, [
          { vout: 0, address: request.to },
        ]);
        if ('unknown' in sent) return sent;
        const from = [...new Set(inputs.map((i) => i.utxo.address))];
        return { ok: { transfers: [{ txid: sent.ok, from, amount }] } };
      });
      return settle(outcome);
    },
  };
}
