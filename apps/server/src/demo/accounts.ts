import { randomBytes } from 'node:crypto';
import { toUnits } from '@exchange/shared';
import { hash } from '@node-rs/argon2';
import type pg from 'pg';
import type { Core } from '../core/index.ts';
import { insertKey } from '../modules/api-keys/repository.ts';
import { decrypt, encrypt, type ServerKeys } from '../modules/identity/crypto.ts';
import { ARGON2_OPTIONS } from '../modules/identity/passwords.ts';
import { newTotpSecret } from '../modules/identity/totp.ts';
import { newUid } from '../modules/identity/uid.ts';
import { firstActiveKey, insertVerifiedUser, userIdByEmail } from './demo-repository.ts';

/**
 * The demo liquidity's two accounts: the maker quotes the book, the taker trades against it. Two, because an
 * order that meets its own user's orders is cancelled (self-trade prevention). Nobody knows their passwords.
 */
export const DEMO_BOT_EMAILS = { maker: 'maker.bot@example.com', taker: 'taker.bot@example.com' } as const;

/** Each bot account's float per currency: deep enough for the history and weeks of bot trading. */
export const DEMO_BOT_BALANCES: Record<string, string> = {
  btc: '1000',
  eth: '50000',
  usdt: '100000000',
  trx: '200000000',
};

/** A bot account and the API key it signs its requests with. */
export interface BotAccount {
  id: string;
  kid: string;
  secret: string;
}

/** Both bot accounts. */
export interface BotAccounts {
  maker: BotAccount;
  taker: BotAccount;
}

/**
 * Creates the bot accounts when missing (active, level 3, two-factor on, as API-key access requires), gives each
 * an API key, and credits their floats through the core once (client command ids make a rerun a no-op).
 * The key secrets are read back decrypted: the bot runs in this process and signs like any outside program.
 */
export async function ensureBotAccounts(db: pg.Pool, core: Core, keys: ServerKeys): Promise<BotAccounts> {
  const maker = await ensureBotAccount(db, keys, DEMO_BOT_EMAILS.maker);
  const taker = await ensureBotAccount(db, keys, DEMO_BOT_EMAILS.taker);
  await Promise.all(
    [maker, taker].flatMap((account) =>
      Object.entries(DEMO_BOT_BALANCES)
        .filter(([currency]) => core.units.precisions.has(currency))
        .map(([currency, amount]) =>
          core.sequencer.submit(
            {
              type: 'Credit',
              user: Number(account.id),
              currency,
              amount: toUnits(amount, core.units.precision(currency)),
              kind: 'adjustment',
            },
            `seed:bot:${account.id}:${currency}`,
          ),
        ),
    ),
  );
  return { maker, taker };
}

async function ensureBotAccount(db: pg.Pool, keys: ServerKeys, email: string): Promise<BotAccount> {
  const id =
    (await userIdByEmail(db, email)) ??
    (await insertVerifiedUser(db, {
      uid: newUid(),
      email,
      passwordDigest: await hash(randomBytes(32).toString('hex'), ARGON2_OPTIONS),
      otpSecretEnc: encrypt(keys, newTotpSecret()),
    }));
  const key = await firstActiveKey(db, id);
  if (key) return { id, kid: key.kid, secret: decrypt(keys, key.secret_enc) };
  const kid = randomBytes(8).toString('hex');
  const secret = randomBytes(32).toString('hex');
  await insertKey(db, id, kid, encrypt(keys, secret));
  return { id, kid, secret };
}
