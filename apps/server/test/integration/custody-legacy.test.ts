import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepLegacyKeys } from '../../src/modules/custody/legacy.ts';
import { encrypt } from '../../src/modules/identity/crypto.ts';
import { hotWallet } from '../../src/modules/wallet/addresses.ts';
import { recordedEndpoint } from '../../src/modules/wallet/endpoints.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { externalAddress } from '../support/wallet.ts';

const ETH = 10n ** 18n;
const USDT = 10n ** 6n;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({}, { EVM_DEVNET: 'true' });
});
afterAll(async () => {
  await t?.close();
});

describe('keys of earlier versions', () => {
  it('are swept into the hot wallet with the operator command, then retired', async () => {
    const network = t.deps.wallet.chains.get('eth-devnet');
    const devnet = t.deps.wallet.evmDevnet;
    if (!network || !devnet) throw new Error('no eth-devnet');
    // What an earlier version stored: an address with its own key, encrypted with SECRET_KEY's key.
    const legacy = Wallet.createRandom();
    await t.db.ownerPool.query(
      `insert into legacy_wallet_keys (blockchain_key, address, kind, secret_enc) values
         ('eth-devnet', $1, 'deposit', $2), ('tron-sim', $3, 'hot', 'sealed-by-an-old-simulator')`,
      [legacy.address, encrypt(t.deps.keys, legacy.privateKey), externalAddress('tron')],
    );
    await devnet.faucet(legacy.address, 'eth', ETH);
    await devnet.faucet(legacy.address, 'usdt', 75n * USDT);
    const hot = await hotWallet(t.db.pool, network);

    const result = await sweepLegacyKeys(
      t.db.ownerPool,
      t.db.pool,
      t.deps.keys,
      t.deps.wallet.chains.all(),
      (key) => recordedEndpoint(t.db.pool, key),
      async () => [{ currency: 'usdt', contract: devnet.usdtAddress }],
    );
    expect(result.waiting).toEqual([]);
    expect(result.sent.map((s) => s.currency)).toEqual(['usdt', 'ether']);
    expect(result.retired).toHaveLength(2);
    expect(await network.chain.balance(hot.address, 'usdt')).toBe(75n * USDT);
    expect(await network.chain.balance(legacy.address, 'usdt')).toBe(0n);
    // What is left is what the node did not burn of the gas it reserved.
    expect(await network.chain.balance(legacy.address, 'eth')).toBeLessThan(10n ** 15n);
    const rows = await t.db.ownerPool.query(
      'select secret_enc, retired_at from legacy_wallet_keys order by blockchain_key',
    );
    for (const row of rows.rows) {
      expect(row.secret_enc).toBeNull();
      expect(row.retired_at).not.toBeNull();
    }
    // Nothing more to do a second time.
    const again = await sweepLegacyKeys(
      t.db.ownerPool,
      t.db.pool,
      t.deps.keys,
      t.deps.wallet.chains.all(),
      (key) => recordedEndpoint(t.db.pool, key),
      async () => [],
    );
    expect(again).toEqual({ retired: [], sent: [], waiting: [] });
  });
});
