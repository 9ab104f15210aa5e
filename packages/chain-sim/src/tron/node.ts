import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import type pg from 'pg';
import { SIM_CHAIN_LOCK, SIM_LOCK_FAMILIES } from '../locks.ts';
import { forgeBlock, txTrieRoot } from './blocks.ts';
import { addressOfPublicKey, bytesToHex, hexToBytes, sha256Hex, toBase58 } from './codec.ts';
import { decodeTransfer, type Execution, execute, PendingState, type Refusal } from './executor.ts';
import {
  BALANCE_OF_ENERGY,
  BALANCE_OF_SELECTOR,
  BLOCK_INTERVAL_MS,
  EXPIRATION_MS,
  SIMULATED_REVERT_ENERGY,
  SOLIDIFIED_DEPTH,
  TRANSFER_ENERGY_HOLDER,
  TRANSFER_ENERGY_NEW_HOLDER,
  TRANSFER_SELECTOR,
} from './params.ts';
import { type BlockRow, type Queryable, TronStore, type TxRow } from './store.ts';
import {
  encodeRawData,
  type RawContract,
  type RawData,
  signedSize,
  transferContract,
  triggerContract,
} from './transaction.ts';

/** What the genesis block gives the simulator's faucet account: TRX in sun, USDT in token units. */
const FAUCET_TRX = 10n ** 16n;
const FAUCET_USDT = 10n ** 15n;

/** An unsigned transaction as the node returns it. */
export interface BuiltTransaction {
  txID: string;
  raw_data: RawData;
  raw_data_hex: string;
}

/** The outcome of a broadcast, before it is written as the HTTP answer. */
export type BroadcastOutcome =
  | { ok: true; txid: string }
  | { ok: false; txid: string; code: string; message: string };

/** The node's refusal of a request at build time: `{"Error": "class <exception> : <message>"}`. */
export class NodeRequestError extends Error {
  constructor(
    readonly exception: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The simulated chain: builds transactions as the node does, validates and pools broadcasts, produces blocks
 * executing the pool, and reorganises. Every write holds the chain's advisory lock, so several processes can serve
 * the same database.
 */
export class TronNode {
  readonly store: TronStore;
  private readonly faucetKey: Uint8Array;
  private readonly witnessKey: Uint8Array;
  readonly faucetAddress: string;

  constructor(
    readonly pool: pg.Pool,
    readonly chain: string,
    /** The emulated TRC-20, hex (41…). */
    readonly usdtContract: string,
  ) {
    this.store = new TronStore(chain);
    this.faucetKey = sha256(new TextEncoder().encode(`tronsim:${chain}:faucet`));
    this.witnessKey = sha256(new TextEncoder().encode(`tronsim:${chain}:witness`));
    this.faucetAddress = addressOfPublicKey(secp256k1.getPublicKey(this.faucetKey, false));
  }

  /** Runs `work` in a transaction holding the chain's lock, the genesis block in place. */
  async locked<T>(work: (q: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      await client.query(SIM_CHAIN_LOCK, [SIM_LOCK_FAMILIES.tron, this.chain]);
      await this.ensureGenesis(client);
      const result = await work(client);
      await client.query('commit');
      return result;
    } catch (error) {
      await client.query('rollback').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  private async ensureGenesis(q: Queryable): Promise<void> {
    if (await this.store.head(q)) return;
    const genesis = forgeBlock(this.witnessKey, null, slot(Date.now()), '0'.repeat(64));
    await this.store.insertBlock(q, genesis);
    await this.store.credit(q, null, 0, this.faucetAddress, 'trx', FAUCET_TRX);
    await this.store.credit(q, null, 0, this.faucetAddress, 'usdt', FAUCET_USDT);
    // The contract's own account exists (it cannot receive TRX by a plain transfer).
    await this.store.credit(q, null, 0, this.usdtContract, 'trx', 0n);
  }

  /** The newest block (creating the genesis block on first use). */
  async head(): Promise<BlockRow> {
    const head = await this.store.head(this.pool);
    if (head) return head;
    return this.locked(async (q) => (await this.store.head(q)) as BlockRow);
  }

  /** Builds an unsigned transaction on the newest solidified block, after validating it against the pending state. */
  async build(contract: RawContract, feeLimit?: bigint): Promise<BuiltTransaction> {
    const head = await this.head();
    const ref = (await this.store.block(this.pool, Math.max(0, head.number - SOLIDIFIED_DEPTH))) ?? head;
    const now = Date.now();
    const raw: RawData = {
      contract: [contract],
      ref_block_bytes: (ref.number & 0xffff).toString(16).padStart(4, '0'),
      ref_block_hash: ref.blockId.slice(16, 32),
      expiration: Math.max(head.timestamp, now) + EXPIRATION_MS,
      timestamp: now,
    };
    if (feeLimit !== undefined && feeLimit > 0n) raw.fee_limit = Number(feeLimit);
    if (contract.type === 'TransferContract') {
      // The node validates a system contract when it builds it (not a smart-contract call).
      const outcome = await this.dryRun(raw, 0);
      if (outcome.refused && outcome.code === 'CONTRACT_VALIDATE_ERROR') {
        throw new NodeRequestError('org.tron.core.exception.ContractValidateException', outcome.message);
      }
    }
    const bytes = encodeRawData(raw);
    return { txID: sha256Hex(bytes), raw_data: raw, raw_data_hex: bytesToHex(bytes) };
  }

  /** Executes `raw` on top of the pending pool without keeping anything: what a broadcast would meet. */
  async dryRun(raw: RawData, size: number): Promise<Refusal | Execution> {
    const head = await this.head();
    const state = new PendingState(this.store.state(this.pool, head.timestamp + BLOCK_INTERVAL_MS));
    for (const tx of await this.store.pending(this.pool)) {
      const outcome = await execute(tx.rawData, txSize(tx), state, this.usdtContract);
      if (!outcome.refused) state.apply(tx.owner, outcome);
    }
    return execute(raw, size, state, this.usdtContract);
  }

  /**
   * A constant (read-only) call of the emulated TRC-20 on the pending state: `balanceOf`, or the energy a
   * `transfer` would use. Anything else reverts.
   */
  async constantCall(
    owner: string,
    data: string,
  ): Promise<{ reverted: boolean; energyUsed: number; output: string }> {
    const head = await this.head();
    const state = new PendingState(this.store.state(this.pool, head.timestamp + BLOCK_INTERVAL_MS));
    for (const tx of await this.store.pending(this.pool)) {
      const outcome = await execute(tx.rawData, txSize(tx), state, this.usdtContract);
      if (!outcome.refused) state.apply(tx.owner, outcome);
    }
    const word = (n: bigint) => n.toString(16).padStart(64, '0');
    if (data.startsWith(BALANCE_OF_SELECTOR) && data.length === 8 + 64 && /^0{24}/.test(data.slice(8))) {
      return {
        reverted: false,
        energyUsed: BALANCE_OF_ENERGY,
        output: word(await state.usdt(`41${data.slice(32)}`)),
      };
    }
    const call = decodeTransfer(data);
    if (call && (await state.usdt(owner)) >= call.amount) {
      const holder = (await state.usdt(call.to)) > 0n;
      return {
        reverted: false,
        energyUsed: holder ? TRANSFER_ENERGY_HOLDER : TRANSFER_ENERGY_NEW_HOLDER,
        output: word(1n),
      };
    }
    return { reverted: true, energyUsed: SIMULATED_REVERT_ENERGY, output: '' };
  }

  /** Validates a signed transaction as java-tron's broadcast does and puts it in the pending pool. */
  async broadcast(raw: RawData, signatures: string[]): Promise<BroadcastOutcome> {
    const bytes = encodeRawData(raw);
    const txid = sha256Hex(bytes);
    const refuse = (code: string, message: string): BroadcastOutcome => ({ ok: false, txid, code, message });
    return this.locked(async (q) => {
      if (await this.store.transaction(q, txid)) return refuse('DUP_TRANSACTION_ERROR', 'Dup transaction.');
      const head = (await this.store.head(q)) as BlockRow;
      if (!(await this.taposHolds(q, raw, head))) return refuse('TAPOS_ERROR', 'Tapos check error.');
      if (raw.expiration <= head.timestamp || raw.expiration > head.timestamp + 24 * 3600_000) {
        return refuse('TRANSACTION_EXPIRATION_ERROR', 'Transaction expired');
      }
      const owner = String(raw.contract[0]?.parameter.value.owner_address ?? '');
      const signer = recoverSigner(txid, signatures);
      if (typeof signer !== 'string') return refuse('SIGERROR', `Validate signature error: ${signer.error}`);
      if (signer !== owner) {
        return refuse(
          'SIGERROR',
          `Validate signature error: ${signatures[0]} is signed by ${toBase58(signer)} but it is not contained of permission.`,
        );
      }
      const state = new PendingState(this.store.state(q, head.timestamp + BLOCK_INTERVAL_MS));
      for (const tx of await this.store.pending(q)) {
        const outcome = await execute(tx.rawData, txSize(tx), state, this.usdtContract);
        if (!outcome.refused) state.apply(tx.owner, outcome);
      }
      const size = signedSize(bytes, signatures.map(hexToBytes));
      const outcome = await execute(raw, size, state, this.usdtContract);
      if (outcome.refused) {
        const prefix = outcome.code === 'CONTRACT_VALIDATE_ERROR' ? 'Contract validate error : ' : '';
        return refuse(outcome.code, prefix + outcome.message);
      }
      await this.store.insertPending(q, {
        txid,
        owner,
        rawData: raw,
        rawDataHex: bytesToHex(bytes),
        signature: signatures,
      });
      return { ok: true, txid };
    });
  }

  /** The ref block a transaction names must be on this chain (its number's low 16 bits and id bytes 8..16). */
  private async taposHolds(q: Queryable, raw: RawData, head: BlockRow): Promise<boolean> {
    if (!/^[0-9a-f]{4}$/.test(raw.ref_block_bytes) || !/^[0-9a-f]{16}$/.test(raw.ref_block_hash))
      return false;
    const low = Number.parseInt(raw.ref_block_bytes, 16);
    const number = head.number - ((head.number - low) & 0xffff);
    if (number < 0) return false;
    const block = await this.store.block(q, number);
    return block?.blockId.slice(16, 32) === raw.ref_block_hash;
  }

  /** Produces `count` blocks; the first takes the pending pool. Returns the new height. */
  async mine(count: number): Promise<number> {
    return this.locked((q) => this.mineOn(q, count, 0));
  }

  private async mineOn(q: pg.PoolClient, count: number, notBefore: number): Promise<number> {
    let head = (await this.store.head(q)) as BlockRow;
    for (let i = 0; i < count; i++) {
      const timestamp = Math.max(slot(Date.now()), head.timestamp + BLOCK_INTERVAL_MS, notBefore);
      const included: { tx: TxRow; outcome: Execution }[] = [];
      if (i === 0) {
        const state = new PendingState(this.store.state(q, timestamp));
        for (const tx of await this.store.pending(q)) {
          const outcome =
            tx.rawData.expiration > timestamp && (await this.taposHolds(q, tx.rawData, head))
              ? await execute(tx.rawData, txSize(tx), state, this.usdtContract)
              : null;
          if (!outcome || outcome.refused) {
            await this.store.dropTransaction(q, tx.txid);
            continue;
          }
          state.apply(tx.owner, outcome);
          included.push({ tx, outcome });
        }
      }
      const block = forgeBlock(this.witnessKey, head, timestamp, txTrieRoot(included.map((x) => x.tx)));
      await this.store.insertBlock(q, block);
      for (const [position, { tx, outcome }] of included.entries()) {
        await this.store.mined(
          q,
          tx.txid,
          block.number,
          position,
          outcome,
          transactionInfo(tx, block, outcome, this.usdtContract),
        );
      }
      head = block;
    }
    return head.number;
  }

  /** Replaces the newest `depth` blocks (never the genesis block) by as many new ones. */
  async reorg(depth: number, keep: boolean): Promise<number> {
    return this.locked(async (q) => {
      const head = (await this.store.head(q)) as BlockRow;
      const from = Math.max(1, head.number - depth + 1);
      if (from > head.number) return head.number;
      await this.store.unwind(q, from, keep);
      // Later timestamps than the blocks replaced: the new blocks never have the old ids.
      return this.mineOn(q, head.number - from + 1, head.timestamp + BLOCK_INTERVAL_MS);
    });
  }

  /** Sends `amount` (sun, or token units) from the simulator's faucet account: an ordinary signed transaction. */
  async faucet(to: string, currency: 'trx' | 'usdt', amount: bigint): Promise<string> {
    const contract =
      currency === 'trx'
        ? transferContract(this.faucetAddress, to, amount)
        : triggerContract(
            this.faucetAddress,
            this.usdtContract,
            TRANSFER_SELECTOR + to.slice(2).padStart(64, '0') + amount.toString(16).padStart(64, '0'),
          );
    const built = await this.build(contract, currency === 'usdt' ? 100_000_000n : undefined);
    const signature = secp256k1.sign(hexToBytes(built.txID), this.faucetKey, {
      prehash: false,
      format: 'recovered',
    });
    const rsv = bytesToHex(Uint8Array.from([...signature.subarray(1), (signature[0] ?? 0) + 27]));
    const outcome = await this.broadcast(built.raw_data, [rsv]);
    if (!outcome.ok) throw new NodeRequestError('faucet', `${outcome.code}: ${outcome.message}`);
    return outcome.txid;
  }
}

/** Block timestamps fall on the 3-second slots. */
function slot(ms: number): number {
  return ms - (ms % BLOCK_INTERVAL_MS);
}

function txSize(tx: Pick<TxRow, 'rawDataHex' | 'signature'>): number {
  return signedSize(hexToBytes(tx.rawDataHex), tx.signature.map(hexToBytes));
}

/** The address that signed `txid`, or why the signature is unusable (r‖s‖v, v being 0/1 or 27/28). */
function recoverSigner(txid: string, signatures: string[]): string | { error: string } {
  if (signatures.length !== 1) return { error: `expected one signature, got ${signatures.length}` };
  const hex = signatures[0] ?? '';
  if (!/^[0-9a-fA-F]{130}$/.test(hex)) return { error: 'signature is not 65 bytes' };
  const bytes = hexToBytes(hex);
  let v = bytes[64] ?? 0;
  if (v >= 27) v -= 27;
  if (v > 1) return { error: 'bad recovery id' };
  try {
    const sig = Uint8Array.from([v, ...bytes.subarray(0, 64)]);
    const pub = secp256k1.recoverPublicKey(sig, hexToBytes(txid), { prehash: false });
    return addressOfPublicKey(secp256k1.Point.fromBytes(pub).toBytes(false));
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** `TransactionInfo` as `/wallet/gettransactioninfobyid` prints it (hex, zero fields left out as proto3 does). */
function transactionInfo(
  tx: TxRow,
  block: BlockRow,
  outcome: Execution,
  usdtContract: string,
): Record<string, unknown> {
  const receipt: Record<string, unknown> = {};
  if (outcome.energyFee > 0n) receipt.energy_fee = Number(outcome.energyFee);
  if (outcome.energyUsage > 0) receipt.energy_usage_total = outcome.energyUsage;
  if (outcome.netUsage > 0) receipt.net_usage = outcome.netUsage;
  if (outcome.netFee > 0n) receipt.net_fee = Number(outcome.netFee);
  if (outcome.vm) receipt.result = outcome.contractRet;
  const info: Record<string, unknown> = { id: tx.txid };
  if (outcome.fee > 0n) info.fee = Number(outcome.fee);
  info.blockNumber = block.number;
  info.blockTimeStamp = block.timestamp;
  info.contractResult = [outcome.contractResult];
  if (outcome.vm) info.contract_address = usdtContract;
  info.receipt = receipt;
  if (outcome.logs.length > 0) info.log = outcome.logs;
  if (outcome.contractRet !== 'SUCCESS') {
    info.result = 'FAILED';
    if (outcome.resMessage) info.resMessage = bytesToHex(new TextEncoder().encode(outcome.resMessage));
  }
  return info;
}
