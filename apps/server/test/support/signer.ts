import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { SignerConfig } from '../../src/modules/signer/config.ts';
import { SignerKeys } from '../../src/modules/signer/keys.ts';
import { rootOf } from '../../src/modules/signer/seed.ts';
import { serveSigner } from '../../src/modules/signer/server.ts';
import { TEST_MNEMONIC } from './unchecked-signer.ts';

/** A running signer for a test app: the real server and policy, with the test mnemonic's keys. */
export interface TestSigner {
  url: string;
  token: string;
  config: SignerConfig;
  close(): Promise<void>;
}

let testKeys: SignerKeys | undefined;

/** Starts the real signer (HTTP, HMAC, policy) on a loopback port, its xpubs published into `db`. */
export async function startTestSigner(
  db: pg.Pool,
  settings: Partial<SignerConfig> = {},
): Promise<TestSigner> {
  const config: SignerConfig = {
    seedFile: '/nonexistent',
    seedKey: undefined,
    token: randomBytes(32).toString('base64url'),
    host: '127.0.0.1',
    port: 0,
    coldAddresses: new Map(),
    dailyCaps: new Map([
      ['btc', '10'],
      ['eth', '200'],
      ['usdt', '500000'],
      ['trx', '5000000'],
    ]),
    maxFees: new Map([
      ['btc', '0.005'],
      ['eth', '0.05'],
      ['trx', '150'],
    ]),
    maxGas: new Map([
      ['eth', '0.01'],
      ['trx', '60'],
    ]),
    evmChainIds: new Map(),
    production: false,
    ...settings,
  };
  // One per test process: the seed's root (BIP39's 2,048 PBKDF2 rounds) and its xpubs are made once, not per app.
  testKeys ??= new SignerKeys(rootOf(TEST_MNEMONIC));
  const keys = testKeys;
  await keys.publish(db);
  const served = await serveSigner(config, db, keys, { info: () => {}, warn: () => {} });
  return { url: served.url, token: config.token, config, close: served.close };
}
