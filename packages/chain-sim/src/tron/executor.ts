import { int64 } from './codec.ts';
import {
  CHAIN_PARAMETERS as P,
  RESULT_SIZE_PER_CONTRACT,
  SIMULATED_REVERT_ENERGY,
  TRANSFER_ENERGY_HOLDER,
  TRANSFER_ENERGY_NEW_HOLDER,
  TRANSFER_SELECTOR,
  TRANSFER_TOPIC,
} from './params.ts';
import type { RawData } from './transaction.ts';

/** Balances and resources of accounts as of the newest block (hex addresses; TRX in sun, USDT in token units). */
export interface ChainState {
  trx(address: string): Promise<bigint>;
  usdt(address: string): Promise<bigint>;
  /** An account exists once it has received TRX (a TRC-20 credit does not create it). */
  exists(address: string): Promise<boolean>;
  /** Free bandwidth the account used in the day before the block being built. */
  freeNetUsed(address: string): Promise<number>;
}

export interface Change {
  address: string;
  currency: 'trx' | 'usdt';
  delta: bigint;
}

export interface TxLog {
  address: string;
  topics: string[];
  data: string;
}

/** A transaction the node will not take: the broadcast answers with `code` and `message`. */
export interface Refusal {
  refused: true;
  code: 'CONTRACT_VALIDATE_ERROR' | 'BANDWITH_ERROR';
  message: string;
}

/** A transaction that goes into a block, succeeded or failed (the fee is burnt either way). */
export interface Execution {
  refused: false;
  contractRet: 'SUCCESS' | 'REVERT' | 'OUT_OF_ENERGY';
  fee: bigint;
  netUsage: number;
  netFee: bigint;
  energyUsage: number;
  energyFee: bigint;
  logs: TxLog[];
  contractResult: string;
  resMessage: string | null;
  freeNetUsed: number;
  changes: Change[];
  /** Whether it ran the VM (TriggerSmartContract): its receipt then carries `result`. */
  vm: boolean;
}

export type Outcome = Refusal | Execution;

/** The chain state with the effects of not-yet-mined transactions applied on top (the node's pending state). */
export class PendingState implements ChainState {
  private readonly deltas = new Map<string, bigint>();
  private readonly created = new Set<string>();
  private readonly netUsed = new Map<string, number>();

  constructor(private readonly base: ChainState) {}

  async trx(address: string) {
    return (await this.base.trx(address)) + (this.deltas.get(`trx:${address}`) ?? 0n);
  }
  async usdt(address: string) {
    return (await this.base.usdt(address)) + (this.deltas.get(`usdt:${address}`) ?? 0n);
  }
  async exists(address: string) {
    return this.created.has(address) || (await this.base.exists(address));
  }
  async freeNetUsed(address: string) {
    return (await this.base.freeNetUsed(address)) + (this.netUsed.get(address) ?? 0);
  }

  apply(owner: string, outcome: Execution): void {
    for (const change of outcome.changes) {
      const key = `${change.currency}:${change.address}`;
      this.deltas.set(key, (this.deltas.get(key) ?? 0n) + change.delta);
      if (change.currency === 'trx' && change.delta > 0n) this.created.add(change.address);
    }
    this.netUsed.set(owner, (this.netUsed.get(owner) ?? 0) + outcome.freeNetUsed);
  }
}

const refuse = (message: string, code: Refusal['code'] = 'CONTRACT_VALIDATE_ERROR'): Refusal => ({
  refused: true,
  code,
  message,
});

/**
 * Validates and executes one transaction against `state` as java-tron does: bandwidth first (free allowance,
 * otherwise burnt TRX), then the contract's validation (a refusal: nothing happens), then its execution (energy
 * burnt up to fee_limit; OUT_OF_ENERGY and REVERT are mined as failed, their fees burnt).
 * `size` is the signed transaction's serialized size. Does not change `state`: the caller applies the outcome.
 */
export async function execute(
  raw: RawData,
  size: number,
  state: ChainState,
  usdtContract: string,
): Promise<Outcome> {
  const contract = raw.contract[0];
  if (!contract || raw.contract.length !== 1) return refuse('contract size should be exactly 1');
  const value = contract.parameter.value;
  const owner = String(value.owner_address ?? '');
  if (!(await state.exists(owner))) {
    return refuse(
      contract.type === 'TransferContract'
        ? 'Validate TransferContract error, no OwnerAccount.'
        : 'account does not exist',
    );
  }
  let balance = await state.trx(owner);
  const bytes = BigInt(size + RESULT_SIZE_PER_CONTRACT);

  if (contract.type === 'TransferContract') {
    const to = String(value.to_address ?? '');
    const amount = int64(value.amount) ?? 0n;
    if (!/^41[0-9a-f]{40}$/.test(to)) return refuse('Invalid toAddress!');
    if (to === owner) return refuse('Cannot transfer TRX to yourself.');
    if (amount <= 0n) return refuse('Amount must be greater than 0.');
    if (to === usdtContract && P.getForbidTransferToContract)
      return refuse('Cannot transfer TRX to a smartContract.');
    const creates = !(await state.exists(to));
    // Bandwidth: creating an account cannot use the free allowance; it burns getCreateAccountFee instead.
    let netUsage = 0;
    let netFee = 0n;
    let freeNetUsed = 0;
    if (creates) netFee = BigInt(P.getCreateAccountFee);
    else if ((await state.freeNetUsed(owner)) + Number(bytes) <= P.getFreeNetLimit) {
      netUsage = Number(bytes);
      freeNetUsed = netUsage;
    } else netFee = bytes * BigInt(P.getTransactionFee);
    if (netFee > balance) return refuse('Account resource insufficient error.', 'BANDWITH_ERROR');
    balance -= netFee;
    const createFee = creates ? BigInt(P.getCreateNewAccountFeeInSystemContract) : 0n;
    if (balance < amount + createFee)
      return refuse('Validate TransferContract error, balance is not sufficient.');
    const fee = netFee + createFee;
    return {
      refused: false,
      contractRet: 'SUCCESS',
      fee,
      netUsage,
      netFee,
      energyUsage: 0,
      energyFee: 0n,
      logs: [],
      contractResult: '',
      resMessage: null,
      freeNetUsed,
      changes: [
        { address: owner, currency: 'trx', delta: -(amount + fee) },
        { address: to, currency: 'trx', delta: amount },
      ],
      vm: false,
    };
  }

  // TriggerSmartContract: only the emulated USDT contract exists.
  const target = String(value.contract_address ?? '');
  if (target !== usdtContract) return refuse('No contract or not a smart contract');
  const feeLimit = int64(raw.fee_limit) ?? 0n;
  if (feeLimit < 0n || feeLimit > BigInt(P.getMaxFeeLimit)) {
    return refuse(`feeLimit must be >= 0 and <= ${P.getMaxFeeLimit}`);
  }
  const callValue = int64(value.call_value) ?? 0n;
  if (callValue < 0n || callValue > balance) return refuse('validateForSmartContract failure');
  let netUsage = 0;
  let netFee = 0n;
  let freeNetUsed = 0;
  if ((await state.freeNetUsed(owner)) + Number(bytes) <= P.getFreeNetLimit) {
    netUsage = Number(bytes);
    freeNetUsed = netUsage;
  } else netFee = bytes * BigInt(P.getTransactionFee);
  if (netFee > balance) return refuse('Account resource insufficient error.', 'BANDWITH_ERROR');
  balance -= netFee;

  // Energy the caller can pay for: what its TRX buys, capped by fee_limit (no staked energy here).
  const energyFee = BigInt(P.getEnergyFee);
  const energyLimit = Number(minBig(balance / energyFee, feeLimit / energyFee));
  const data = String(value.data ?? '').toLowerCase();
  const call = decodeTransfer(data);
  const tokenChanges: Change[] = [];
  let needed: number;
  let ret: Execution['contractRet'] = 'SUCCESS';
  let logs: TxLog[] = [];
  let contractResult = '';
  if (!call || callValue > 0n || (await state.usdt(owner)) < call.amount) {
    needed = SIMULATED_REVERT_ENERGY;
    ret = 'REVERT';
  } else {
    needed = (await state.usdt(call.to)) > 0n ? TRANSFER_ENERGY_HOLDER : TRANSFER_ENERGY_NEW_HOLDER;
  }
  let energyUsage = needed;
  let resMessage: string | null = ret === 'REVERT' ? 'REVERT opcode executed' : null;
  if (needed > energyLimit) {
    // Out of energy: everything the limit allowed is consumed, and nothing of the call remains.
    ret = 'OUT_OF_ENERGY';
    energyUsage = energyLimit;
    resMessage = `Not enough energy for 'SSTORE' operation executing: curInvokeEnergyLimit[${energyLimit}], curOpEnergy[${needed}], usedEnergy[${energyLimit}]`;
  } else if (ret === 'SUCCESS' && call) {
    tokenChanges.push(
      { address: owner, currency: 'usdt', delta: -call.amount },
      { address: call.to, currency: 'usdt', delta: call.amount },
    );
    logs = [
      {
        address: usdtContract.slice(2),
        topics: [TRANSFER_TOPIC, word(owner.slice(2)), word(call.to.slice(2))],
        data: call.amount.toString(16).padStart(64, '0'),
      },
    ];
    contractResult = word('1');
  }
  const burnt = BigInt(energyUsage) * energyFee;
  const fee = netFee + burnt;
  return {
    refused: false,
    contractRet: ret,
    fee,
    netUsage,
    netFee,
    energyUsage,
    energyFee: burnt,
    logs,
    contractResult,
    resMessage,
    freeNetUsed,
    changes: [
      ...(fee > 0n ? [{ address: owner, currency: 'trx' as const, delta: -fee }] : []),
      ...tokenChanges,
    ],
    vm: true,
  };
}

/** `transfer(address,uint256)` call data: the recipient (hex 41…) and the amount, or null for anything else. */
export function decodeTransfer(data: string): { to: string; amount: bigint } | null {
  if (!data.startsWith(TRANSFER_SELECTOR) || data.length !== 8 + 128) return null;
  const to = data.slice(8, 72);
  if (!/^0{24}[0-9a-f]{40}$/.test(to)) return null;
  return { to: `41${to.slice(24)}`, amount: BigInt(`0x${data.slice(72)}`) };
}

function word(hex: string): string {
  return hex.padStart(64, '0');
}

function minBig(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}
