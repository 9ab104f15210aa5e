import { randomBytes } from 'node:crypto';
import { encodeP2wpkhAddress, encodeTronAddress } from '@exchange/shared';
import { getAddress, hexlify } from 'ethers';
import { afterAll, beforeAll, expect } from 'vitest';
import { auditLedger } from '../../src/core/audit.ts';
import { encrypt } from '../../src/modules/identity/crypto.ts';
import { newTotpSecret } from '../../src/modules/identity/totp.ts';
import type { DevTools } from '../../src/modules/wallet/chains.ts';
import { createTestApp, type TestApp } from './app.ts';
import { plainUser, sessionFor } from './core.ts';
import { forgetUsedTotp, oathtoolCode, outbox } from './identity.ts';

/** A signed-in user with two-factor on, for wallet tests. */
export interface Member {
  id: number;
  email: string;
  headers: Record<string, string>;
  /** Base32 TOTP secret. */
  secret: string;
}

/** Creates a signed-in user at `level` with two-factor on. */
export async function member(t: TestApp, email: string, level = 3): Promise<Member> {
  const id = await plainUser(t.db.pool, email);
  const secret = newTotpSecret();
  await t.db.pool.query('update users set level = $2, otp = true, otp_secret_enc = $3 where id = $1', [
    id,
    level,
    encrypt(t.deps.keys, secret),
  ]);
  return { id, email, secret, headers: await sessionFor(t.deps.sessions, id) };
}

/** A request to the Peatio API as `who`. */
export function peatio(
  t: TestApp,
  who: Member,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
) {
  return t.app.inject({
    method,
    url: `/api/v2/peatio${url}`,
    headers: who.headers,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}

/**
 * A fresh authenticator code for `who` (the replay guard is reset, as if time had moved on), for the app's clock
 * wherever a test moved it.
 */
export async function freshTotp(t: TestApp, who: Member): Promise<string> {
  await forgetUsedTotp(t, who.email);
  return oathtoolCode(who.secret, Math.round(t.clock.offset / 1000));
}

/** One TRX in units (precision 6). */
export const TRX = 1_000_000n;

/**
 * A wallet test file's app, with its helpers. `walletSuite()` registers the app's start before the file's
 * tests, and after them the ledger audit (money conserved, balances equal to their postings) and the close.
 */
export class WalletSuite {
  t!: TestApp;

  /** The TRON simulator's controls (faucet, mining, reorgs), over its HTTP extensions. */
  get tron(): DevTools {
    return devTools(this.t, 'tron-sim');
  }

  /** The TRON network's adapter (balances as the chain sees them). */
  get tronChain() {
    const network = this.t.deps.wallet.chains.get('tron-sim');
    if (!network) throw new Error('no tron-sim network');
    return network.chain;
  }

  member = (email: string, level = 3) => member(this.t, email, level);
  call = (who: Member, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    peatio(this.t, who, method, url, payload);
  balance = (who: Member, currency: string) => this.t.deps.core.sequencer.state.balance(who.id, currency);
  totp = (who: Member) => freshTotp(this.t, who);

  /** Credits `amount` units through the core, as a deposit. */
  credit = (who: Member, currency: string, amount: bigint) =>
    this.t.deps.core.sequencer.submit({ type: 'Credit', user: who.id, currency, amount, kind: 'deposit' });

  depositAddress = async (who: Member, currency = 'trx', network = 'tron-sim') =>
    (await this.call(who, 'GET', `/account/deposit_address/${currency}?blockchain_key=${network}`)).json()
      .address as string;

  deposits = async (who: Member, query = '') =>
    (await this.call(who, 'GET', `/account/deposits${query}`)).json();

  /** Mines TRON blocks, then lets the wallet see them. */
  mine = async (blocks: number) => {
    await this.tron.mine(blocks);
    await this.t.deps.wallet.tick();
  };

  /** The newest beneficiary activation pin mailed to `who`. */
  emailedPin = async (who: Member): Promise<string> => {
    const [mail] = await outbox(this.t, who.email);
    const pin = mail?.template === 'beneficiary_pin' ? mail.secret : null;
    if (!pin) throw new Error('no pin mailed');
    return pin;
  };

  /** Saves and activates a beneficiary with the emailed pin; returns its id. */
  activeBeneficiary = async (who: Member, address: string, currency = 'trx', network = 'tron-sim') => {
    const created = await this.call(who, 'POST', '/account/beneficiaries', {
      name: `to ${address.slice(0, 6)}`,
      currency,
      blockchain_key: network,
      data: { address },
    });
    expect(created.statusCode).toBe(201);
    const pin = await this.emailedPin(who);
    const activated = await this.call(who, 'PATCH', `/account/beneficiaries/${created.json().id}/activate`, {
      pin,
    });
    expect(activated.statusCode).toBe(200);
    return activated.json().id as number;
  };

  /** A funded member with an active TRON beneficiary to a fresh chain address. */
  withdrawer = async (email: string, trx: bigint) => {
    const who = await this.member(email);
    await this.credit(who, 'trx', trx);
    const target = externalAddress('tron');
    return { who, target, beneficiary: await this.activeBeneficiary(who, target) };
  };

  /** `POST /account/withdraws` of TRX on tron-sim, with a fresh authenticator code unless one is given. */
  withdraw = async (who: Member, beneficiary: number, amount: string, otp?: string) =>
    this.call(who, 'POST', '/account/withdraws', {
      amount,
      otp: otp ?? (await this.totp(who)),
      beneficiary_id: beneficiary,
      currency: 'trx',
      blockchain_key: 'tron-sim',
    });
}

/** The developer controls of a network of the app (its simulator's or devnet's). */
export function devTools(t: TestApp, network: string): DevTools {
  const dev = t.deps.wallet.chains.get(network)?.dev;
  if (!dev) throw new Error(`${network} has no developer tools`);
  return dev;
}

/** A valid address that is nobody's on the exchange: someone outside, to withdraw to. */
export function externalAddress(kind: 'tron' | 'btc' | 'evm'): string {
  const hash = randomBytes(20);
  if (kind === 'tron') return encodeTronAddress(hash);
  if (kind === 'btc') return encodeP2wpkhAddress('regtest', hash);
  return getAddress(hexlify(hash));
}

/** Starts a wallet test app for this file (extra environment in `env`); audits the ledger and closes it after. */
export function walletSuite(env: Record<string, string> = {}): WalletSuite {
  const suite = new WalletSuite();
  beforeAll(async () => {
    suite.t = await createTestApp({}, env);
  });
  afterAll(async () => {
    expect(await auditLedger(suite.t.db.pool)).toEqual([]);
    await suite.t.close();
  });
  return suite;
}
