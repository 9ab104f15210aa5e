import { computeAddress, hexlify, Transaction } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeyScheme } from '../../src/adapters/chains/port.ts';
import { type SignerPort, SignerRefusedError, type WalletKey } from '../../src/adapters/chains/signing.ts';
import { publicKeyAt } from '../../src/modules/custody/hd.ts';
import { signedHeaders } from '../../src/modules/signer/auth.ts';
import { createSignerClient } from '../../src/modules/signer/client.ts';
import { plainUser } from '../support/core.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { startTestSigner, type TestSigner } from '../support/signer.ts';
import { uncheckedSigner } from '../support/unchecked-signer.ts';
import { externalAddress } from '../support/wallet.ts';

const ETH = 10n ** 18n;
const EVM: KeyScheme = { purpose: 44, coinType: 60, nativeCurrency: 'eth' };
const NETWORK = 'eth-devnet';

let db: TestDatabase;
let signer: TestSigner;
let client: SignerPort;
let userId: number;
const cold = externalAddress('evm');

/** The test mnemonic's public keys, as every other process derives them from the published xpubs. */
const { xpub } = uncheckedSigner(() => EVM);
const keyOf = (account: 0 | 1, index: number): WalletKey => ({
  account,
  index,
  address: computeAddress(hexlify(publicKeyAt(xpub(EVM, account), index))),
});
const hot = keyOf(1, 0);

/** An EIP-1559 ether transfer of `value` wei to `to`, as the EVM adapter asks for it. */
function etherTransfer(to: string, value: bigint, nonce = 0) {
  return {
    to,
    value: value.toString(),
    data: '0x',
    nonce,
    gasLimit: '21000',
    maxFeePerGas: '2000000000',
    maxPriorityFeePerGas: '1000000000',
    chainId: '31337',
  };
}

/** A withdrawal row in `state`, of `amount` ether less `fee`, to `rid`. */
async function withdrawal(state: string, rid: string, amount = '1.5', fee = '0.002'): Promise<number> {
  const row = await db.pool.query(
    `insert into withdrawals (user_id, currency_id, blockchain_key, rid, amount, fee, state)
     values ($1, 'eth', $2, $3, $4, $5, $6) returning id`,
    [userId, NETWORK, rid, amount, fee, state],
  );
  return Number(row.rows[0].id);
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 'signed',
    (err: unknown) => (err instanceof SignerRefusedError ? err.code : String(err)),
  );

beforeAll(async () => {
  db = await createTestDatabase();
  signer = await startTestSigner(db.pool, {
    coldAddresses: new Map([[NETWORK, cold]]),
    dailyCaps: new Map([['eth', '3']]),
  });
  client = createSignerClient({ url: signer.url, token: signer.token, schemeOf: () => EVM });
  userId = await plainUser(db.pool, 'sender@signer.test');
});

afterAll(async () => {
  await signer?.close();
  await db?.drop();
});

describe('the signer over HTTP, as a raw client reaches it', () => {
  const body = JSON.stringify({
    network: NETWORK,
    scheme: { purpose: 44, coinType: 60 },
    nativeCurrency: 'eth',
    purpose: { kind: 'sweep' },
    transaction: etherTransfer(hot.address, ETH),
    key: keyOf(0, 1),
  });
  const post = (headers: Record<string, string>) =>
    fetch(new URL('/v1/evm/sign', signer.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });

  it('refuses a caller without its credentials, with a wrong token, or with a stale request', async () => {
    const none = await post({});
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ errors: ['signer.auth.invalid'] });
    const wrong = await post(signedHeaders('x'.repeat(43), 'POST', '/v1/evm/sign', body));
    expect(wrong.status).toBe(401);
    const stale = await post(signedHeaders(signer.token, 'POST', '/v1/evm/sign', body, Date.now() - 120_000));
    expect(stale.status).toBe(401);
    // The same request, properly signed, is a sweep it allows.
    const fine = await post(signedHeaders(signer.token, 'POST', '/v1/evm/sign', body));
    expect(fine.status).toBe(200);
    const signed = Transaction.from(((await fine.json()) as { raw: string }).raw);
    expect(signed.from).toBe(keyOf(0, 1).address);
    expect(signed.to).toBe(hot.address);
  });

  it('answers its health without credentials and nothing else', async () => {
    expect((await fetch(new URL('/v1/health', signer.url))).status).toBe(200);
    expect((await fetch(new URL('/v1/xpubs', signer.url), { method: 'POST' })).status).toBe(401);
  });
});

describe('the signing policy', () => {
  it('signs an approved withdrawal exactly as approved, once', async () => {
    const rid = externalAddress('evm');
    const id = await withdrawal('processing', rid);
    const purpose = { kind: 'withdrawal', withdrawalId: id } as const;
    // 1.5 ether less the 0.002 fee.
    const due = 1_498_000_000_000_000_000n;
    const request = (to: string, value: bigint) =>
      client.signEvm({ network: NETWORK, purpose, key: hot, transaction: etherTransfer(to, value) });

    expect(await refusal(request(rid, due + 1n))).toBe('signer.withdrawal.wrong_amount');
    expect(await refusal(request(externalAddress('evm'), due))).toBe('signer.withdrawal.wrong_address');
    const signed = await request(rid, due);
    const tx = Transaction.from(signed.raw);
    expect(tx.from).toBe(hot.address);
    expect(tx.to).toBe(rid);
    expect(tx.value).toBe(due);
    expect(tx.hash).toBe(signed.txid);
    // Never twice, not even the very same transaction.
    expect(await refusal(request(rid, due))).toBe('signer.withdrawal.already_signed');
  });

  it('refuses a withdrawal that is not approved or does not exist, or one paid from a deposit address', async () => {
    const rid = externalAddress('evm');
    const waiting = await withdrawal('accepted', rid, '1', '0');
    const rejected = await withdrawal('rejected', rid, '1', '0');
    const ask = (withdrawalId: number, key = hot) =>
      refusal(
        client.signEvm({
          network: NETWORK,
          purpose: { kind: 'withdrawal', withdrawalId },
          key,
          transaction: etherTransfer(rid, ETH),
        }),
      );
    expect(await ask(waiting)).toBe('signer.withdrawal.not_approved');
    expect(await ask(rejected)).toBe('signer.withdrawal.not_approved');
    expect(await ask(999_999)).toBe('signer.withdrawal.not_found');
    const processing = await withdrawal('processing', rid, '1', '0');
    expect(await ask(processing, keyOf(0, 3))).toBe('signer.source.not_allowed');
  });

  it('keeps the daily cap per network and currency', async () => {
    const rid = externalAddress('evm');
    // 1.498 already signed today; 1.6 more would pass the cap of 3.
    const id = await withdrawal('processing', rid, '1.6', '0');
    expect(
      await refusal(
        client.signEvm({
          network: NETWORK,
          purpose: { kind: 'withdrawal', withdrawalId: id },
          key: hot,
          transaction: etherTransfer(rid, 1_600_000_000_000_000_000n),
        }),
      ),
    ).toBe('signer.withdrawal.daily_cap');
  });

  it('sweeps only from deposit addresses to the hot wallet, gas only to our deposit address, cold only to the cold address', async () => {
    const sign = (
      purpose: Parameters<SignerPort['signEvm']>[0]['purpose'],
      key: WalletKey,
      to: string,
      value = ETH,
    ) => refusal(client.signEvm({ network: NETWORK, purpose, key, transaction: etherTransfer(to, value) }));
    expect(await sign({ kind: 'sweep' }, keyOf(0, 5), externalAddress('evm'))).toBe(
      'signer.sweep.not_to_hot_wallet',
    );
    expect(await sign({ kind: 'sweep' }, hot, hot.address)).toBe('signer.source.not_allowed');
    expect(await sign({ kind: 'gas', depositIndex: 7 }, hot, keyOf(0, 7).address, ETH / 1000n)).toBe(
      'signed',
    );
    expect(await sign({ kind: 'gas', depositIndex: 7 }, hot, keyOf(0, 8).address, ETH / 1000n)).toBe(
      'signer.gas.not_our_address',
    );
    expect(await sign({ kind: 'gas', depositIndex: 7 }, hot, keyOf(0, 7).address, ETH)).toBe(
      'signer.gas.too_much',
    );
    expect(await sign({ kind: 'cold' }, hot, cold)).toBe('signed');
    expect(await sign({ kind: 'cold' }, hot, externalAddress('evm'))).toBe('signer.cold.wrong_address');
    // A key that is not the one named: the signer derives it again and compares.
    expect(await sign({ kind: 'sweep' }, { ...keyOf(0, 5), index: 6 }, hot.address)).toBe(
      'signer.transaction.keys_mismatch',
    );
  });

  it('logs every decision with its reason', async () => {
    const log = await db.pool.query(`select purpose, decision, reason from signer_log order by id`);
    const decisions = log.rows.map((r) => `${r.purpose}:${r.decision}:${r.reason ?? ''}`);
    expect(decisions).toContain('withdrawal:signed:');
    expect(decisions).toContain('withdrawal:refused:signer.withdrawal.wrong_amount');
    expect(decisions).toContain('withdrawal:refused:signer.withdrawal.already_signed');
    expect(decisions).toContain('cold:refused:signer.cold.wrong_address');
    expect(decisions).toContain('gas:signed:');
    // The app's role may add to the log, never change it.
    await expect(db.pool.query(`update signer_log set decision = 'signed'`)).rejects.toThrow(
      /permission denied/,
    );
    await expect(db.pool.query('delete from signer_log')).rejects.toThrow(/permission denied/);
  });
});

describe('no private key where the app can read it', () => {
  it('the app role cannot read the legacy keys, and no app table keeps a wallet key', async () => {
    const privileges = await db.pool.query(
      `select has_table_privilege(current_user, 'legacy_wallet_keys', 'select') as legacy`,
    );
    expect(privileges.rows[0].legacy).toBe(false);
    await expect(db.pool.query('select * from legacy_wallet_keys')).rejects.toThrow(/permission denied/);
    const columns = await db.pool.query(
      `select table_name, column_name from information_schema.columns
       where table_schema = 'public' and table_name in ('deposit_addresses', 'hot_wallets', 'cold_wallets')`,
    );
    const names = columns.rows.map((r) => `${r.table_name}.${r.column_name}`);
    expect(names.some((n) => /secret|private|seed|xprv|mnemonic/.test(n))).toBe(false);
    // Only extended public keys were published.
    const xpubs = await db.pool.query('select xpub from custody_xpubs');
    expect(xpubs.rowCount).toBe(8);
    for (const r of xpubs.rows) expect(r.xpub).toMatch(/^xpub/);
  });
});
