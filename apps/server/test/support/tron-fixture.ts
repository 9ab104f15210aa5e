import type http from 'node:http';
import { startTronSimulator, type TronSimulator } from '@exchange/chain-sim';
import { encodeTronAddress } from '@exchange/shared';
import { keccak256, randomBytes, SigningKey } from 'ethers';
import protobuf from 'protobufjs';
import { afterAll, beforeAll } from 'vitest';
import type { ChainPort, KeyScheme } from '../../src/adapters/chains/port.ts';
import type { SignerPort, WalletKey } from '../../src/adapters/chains/signing.ts';
import { createTronChain } from '../../src/adapters/chains/tron/adapter.ts';
import { createTronDevTools, type TronDevTools } from '../../src/adapters/chains/tron/dev-tools.ts';
import { publicKeyAt } from '../../src/modules/custody/hd.ts';
import { createTestDatabase, type TestDatabase } from './db.ts';
import { uncheckedSigner } from './unchecked-signer.ts';

/** A TRON simulator over its own database, the adapter in front of it and keys of the test mnemonic. */
export const SCHEME: KeyScheme = { purpose: 44, coinType: 195, nativeCurrency: 'trx' };
export const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
export const CURRENCIES = { trx: 6, usdt: 6 };
/** The simulator's fees (packages/chain-sim/src/tron/params.ts), as the tests expect them. */
export const ENERGY_FEE = 100n;
export const NEW_ACCOUNT_FEE = 1_000_000n + 100_000n;
export const NEW_HOLDER_ENERGY = 130_285n;
export const HOLDER_ENERGY = 64_285n;

/**
 * TRON's protocol messages (core/Tron.proto: Transaction.raw, Transaction.Contract; google.protobuf.Any;
 * core/contract/balance_contract.proto: TransferContract; smart_contract.proto: TriggerSmartContract), for
 * protobufjs to decode what we broadcast independently of the adapter's own decoder.
 */
export const PROTO = `
syntax = "proto3";
package protocol;
message Any { string type_url = 1; bytes value = 2; }
message Contract { int32 type = 1; Any parameter = 2; bytes provider = 3; bytes ContractName = 4; int32 Permission_id = 5; }
message TransactionRaw {
  bytes ref_block_bytes = 1; int64 ref_block_num = 3; bytes ref_block_hash = 4; int64 expiration = 8;
  bytes data = 10; repeated Contract contract = 11; bytes scripts = 12; int64 timestamp = 14; int64 fee_limit = 18;
}
message TransferContract { bytes owner_address = 1; bytes to_address = 2; int64 amount = 3; }
message TriggerSmartContract {
  bytes owner_address = 1; bytes contract_address = 2; int64 call_value = 3; bytes data = 4;
  int64 call_token_value = 5; int64 token_id = 6;
}
`;
const root = protobuf.parse(PROTO, { keepCase: true }).root;
export const RawType = root.lookupType('protocol.TransactionRaw');
export const TransferType = root.lookupType('protocol.TransferContract');
export const TriggerType = root.lookupType('protocol.TriggerSmartContract');

export interface Signed {
  txID: string;
  raw_data_hex: string;
  signature: string;
  key: WalletKey;
}

/** What a TRON test file works with, filled in before its tests. */
export interface TronFixture {
  db: TestDatabase;
  sim: TronSimulator;
  dev: TronDevTools;
  chain: ChainPort;
  /** The test mnemonic's signer, recording what it signs. */
  signer: SignerPort;
  deposit: (index: number) => WalletKey;
  hot: WalletKey;
  signed: Signed[];
  servers: http.Server[];
  /** POSTs to the node's HTTP API. */
  node(path: string, body?: Record<string, unknown>): Promise<Record<string, unknown>>;
  info(txid: string): Promise<Record<string, unknown>>;
}

export const tronAddress = (bytes: Uint8Array) => encodeTronAddress(bytes.subarray(1));
export const external = () => {
  const key = new SigningKey(randomBytes(32));
  return encodeTronAddress(Buffer.from(keccak256(`0x${key.publicKey.slice(4)}`).slice(-40), 'hex'));
};

export const hexText = (hex: unknown) => Buffer.from(String(hex), 'hex').toString('utf8');

/** Registers the fixture's start before the file's tests and its stop after them. */
export function tronFixture(): TronFixture {
  const f = { signed: [] as Signed[], servers: [] as http.Server[] } as TronFixture;
  f.node = async (path, body = {}) => {
    const response = await fetch(f.sim.url + path, { method: 'POST', body: JSON.stringify(body) });
    return (await response.json()) as Record<string, unknown>;
  };
  f.info = (txid) => f.node('/wallet/gettransactioninfobyid', { value: txid });
  beforeAll(async () => {
    f.db = await createTestDatabase();
    f.sim = await startTronSimulator({ pool: f.db.pool, usdtContract: USDT, blockMs: 0 });
    f.dev = createTronDevTools({ apiUrl: f.sim.url });
    const unchecked = uncheckedSigner(() => SCHEME);
    // Records everything signed, to check it afterwards with libraries of its own.
    f.signer = {
      ...unchecked.signer,
      async signTron(request) {
        const result = await unchecked.signer.signTron(request);
        f.signed.push({ ...request.transaction, signature: result.signature, key: request.key });
        return result;
      },
    };
    f.chain = createTronChain({
      key: 'tron-sim',
      apiUrl: f.sim.url,
      signer: f.signer,
      usdtContract: USDT,
      currencies: CURRENCIES,
    });
    const deposits = unchecked.xpub(SCHEME, 0);
    f.deposit = (index) => ({ account: 0, index, address: f.chain.addressOf(publicKeyAt(deposits, index)) });
    f.hot = { account: 1, index: 0, address: f.chain.addressOf(publicKeyAt(unchecked.xpub(SCHEME, 1), 0)) };
    // The hot wallet's account exists before anything is swept to it.
    await f.dev.faucet(f.hot.address, 'trx', 100_000_000n);
    await f.dev.mine();
  });

  afterAll(async () => {
    for (const server of f.servers) server.close();
    await f.sim?.stop();
    await f.db?.drop();
  });
  return f;
}
