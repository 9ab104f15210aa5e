import { coinIconPath, toUnits } from '@exchange/shared';
import { hash } from '@node-rs/argon2';
import type pg from 'pg';
import type { Core } from '../core/index.ts';
import { ARGON2_OPTIONS } from '../modules/identity/passwords.ts';
import { newUid } from '../modules/identity/uid.ts';
import { hotWallet } from '../modules/wallet/addresses.ts';
import type { DevTools, Network } from '../modules/wallet/chains.ts';
import type { Wallet } from '../modules/wallet/index.ts';
import { withTransaction } from './pool.ts';
import {
  DEMO_BALANCES,
  DEMO_BOOKS,
  DEMO_USERS,
  DEMO_VERIFIED_PROFILE,
  SEED_BLOCKCHAINS,
  SEED_CURRENCIES,
  SEED_DEFAULT_FEE,
  SEED_MARKETS,
  SEED_NETWORKS,
} from './seed-data.ts';

/** Inserts reference data that is missing and fills in later details; never changes what an operator has edited. */
export async function seedReferenceData(pool: pg.Pool): Promise<void> {
  await insertReferenceData(pool);
  await withTransaction(pool, async (db) => {
    for (const c of SEED_CURRENCIES) {
      // The app's own icon (docs/wallet.md#constants: icons by ticker), also for a database seeded before there were icons; the
      // description and homepage likewise, where an operator has set none.
      await db.query(
        `update currencies set icon_url = coalesce(icon_url, $2), description = coalesce(description, $3),
           homepage = coalesce(homepage, $4) where id = $1`,
        [c.id, coinIconPath(c.id), c.description, c.homepage],
      );
    }
  });
}

/**
 * Inserts the reference rows that are missing (currencies, chains, networks, markets, the default fee) with the
 * columns they have had since the first layout, so a test can also seed a database of an earlier version.
 */
export async function insertReferenceData(pool: pg.Pool): Promise<void> {
  await withTransaction(pool, async (db) => {
    for (const c of SEED_CURRENCIES) {
      await db.query(
        `insert into currencies (id, name, type, precision, position, swap_fee) values ($1, $2, $3, $4, $5, $6)
         on conflict (id) do nothing`,
        [c.id, c.name, c.type, c.precision, c.position, c.swapFee],
      );
    }
    for (const b of SEED_BLOCKCHAINS) {
      await db.query(
        `insert into blockchains (key, name, client, min_confirmations) values ($1, $2, $3, $4)
         on conflict (key) do nothing`,
        [b.key, b.name, b.client, b.confirmations],
      );
    }
    for (const n of SEED_NETWORKS) {
      await db.query(
        `insert into currency_networks (currency_id, blockchain_key, protocol, min_deposit_amount,
           min_withdraw_amount, withdraw_fee) values ($1, $2, $3, $4, $5, $6)
         on conflict (currency_id, blockchain_key) do nothing`,
        [n.currency, n.chain, n.protocol, n.minDeposit, n.minWithdraw, n.fee],
      );
    }
    for (const [i, m] of SEED_MARKETS.entries()) {
      await db.query(
        `insert into markets (id, base_unit, quote_unit, price_precision, amount_precision, min_price, max_price,
           min_amount, position) values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         on conflict (id) do nothing`,
        [m.id, m.base, m.quote, m.pp, m.ap, m.minPrice, m.maxPrice, m.minAmount, i + 1],
      );
    }
    await db.query(
      `insert into trading_fees (market_id, "group", maker, taker) values ('any', 'any', $1, $2)
       on conflict (market_id, "group") do nothing`,
      [SEED_DEFAULT_FEE.maker, SEED_DEFAULT_FEE.taker],
    );
  });
}

/**
 * Creates the demo users (active, verified email and phone; level 2, or level 3 with a verified identity for
 * those marked so). Existing demo users are left alone.
 * Their starting balances are credited through the exchange core by {@link creditDemoBalances}.
 * @returns the demo users' ids and emails.
 */
export async function seedDemoUsers(
  pool: pg.Pool,
  password: string,
): Promise<{ id: string; email: string }[]> {
  const existing = await pool.query<{ id: string; email: string }>(
    'select id, email from users where lower(email) = any($1::text[]) order by id',
    [DEMO_USERS.map((u) => u.email)],
  );
  if (existing.rowCount === DEMO_USERS.length)
    return existing.rows.map((r) => ({ id: String(r.id), email: r.email }));
  const digest = await hash(password, ARGON2_OPTIONS);
  for (const demo of DEMO_USERS) {
    await withTransaction(pool, async (db) => {
      const inserted = await db.query<{ id: string }>(
        `insert into users (uid, email, password_digest, level, state) values ($1, $2, $3, 2, 'active')
         on conflict (lower(email)) do nothing returning id`,
        [newUid(), demo.email, digest],
      );
      const id = inserted.rows[0]?.id;
      if (!id) return;
      await db.query(
        `insert into labels (user_id, key, value, scope) values ($1, 'email', 'verified', 'private'),
           ($1, 'phone', 'verified', 'private')`,
        [id],
      );
      await db.query(
        `insert into phones (user_id, country, number, validated_at) values ($1, 'AT', $2, now())`,
        [id, demo.phone],
      );
      if (!demo.identityVerified) {
        await db.query(
          `insert into profiles (user_id, first_name, last_name, country) values ($1, $2, $3, 'AT')`,
          [id, demo.first, demo.last],
        );
        return;
      }
      const p = DEMO_VERIFIED_PROFILE;
      await db.query(
        `insert into profiles (user_id, first_name, last_name, gender, dob, address, postcode, city, country, state)
         values ($1, $2, $3, $4, $5, $6, $7, $8, 'AT', 'verified')`,
        [id, demo.first, demo.last, p.gender, p.dob, p.address, p.postcode, p.city],
      );
      await db.query(
        `insert into labels (user_id, key, value, scope) values ($1, 'document', 'verified', 'private'),
           ($1, 'basic-kyc-level', 'verified', 'private')`,
        [id],
      );
      await db.query('update users set level = 3 where id = $1', [id]);
    });
  }
  return seedDemoUsers(pool, password);
}

/**
 * Credits each demo user's starting balance through the exchange core, once: every credit carries a client
 * command id, so running the seed again changes nothing.
 */
export async function creditDemoBalances(core: Core, users: { id: string }[]): Promise<void> {
  const credits = users.flatMap((user) =>
    Object.entries(DEMO_BALANCES).map(([currency, amount]) =>
      core.sequencer.submit(
        {
          type: 'Credit',
          user: Number(user.id),
          currency,
          amount: toUnits(amount, core.units.precision(currency)),
          kind: 'adjustment',
        },
        `seed:demo:${user.id}:${currency}`,
      ),
    ),
  );
  await Promise.all(credits);
}

/**
 * Gives each demo market a small order book from the second demo user (five bids and five asks around a
 * reference price) and one trade by the first, so the screens show depth, a ticker and a candle. Every order
 * carries a client id, so running the seed again places nothing new.
 */
export async function seedDemoBooks(core: Core, users: { id: string }[]): Promise<void> {
  const [taker, maker] = users;
  if (!taker || !maker) return;
  for (const book of DEMO_BOOKS) {
    const info = core.markets.get(book.market);
    if (!info) continue;
    const mid = toUnits(book.mid, info.pricePrecision);
    const step = toUnits(book.step, info.pricePrecision);
    const volume = toUnits(book.volume, info.amountPrecision);
    const orders = [1n, 2n, 3n, 4n, 5n].flatMap((i) => [
      { side: 'sell' as const, price: mid + step * i, ref: `ask:${i}` },
      { side: 'buy' as const, price: mid - step * i, ref: `bid:${i}` },
    ]);
    for (const o of orders) {
      await core.sequencer.submit(
        {
          type: 'PlaceOrder',
          user: Number(maker.id),
          market: book.market,
          side: o.side,
          ordType: 'limit',
          price: o.price,
          volume,
        },
        `seed:book:${book.market}:${o.ref}`,
      );
    }
    await core.sequencer.submit(
      {
        type: 'PlaceOrder',
        user: Number(taker.id),
        market: book.market,
        side: 'buy',
        ordType: 'market',
        volume: volume / 2n || 1n,
      },
      `seed:book:${book.market}:trade`,
    );
  }
}

/**
 * Demo money outside the users: the swap desk's liquidity (ten times a demo balance per currency) and coins
 * in each simulated network's hot wallet, so swaps and withdrawals work on a fresh install. Both happen once.
 */
export async function seedDemoWallet(core: Core, wallet: Wallet, db: pg.Pool): Promise<void> {
  await Promise.all(
    Object.entries(DEMO_BALANCES).map(([currency, amount]) =>
      core.sequencer.submit(
        { type: 'FundLiquidity', currency, amount: 10n * toUnits(amount, core.units.precision(currency)) },
        `seed:liquidity:${currency}`,
      ),
    ),
  );
  for (const network of wallet.chains.all()) {
    const dev = network.dev;
    if (!dev) continue;
    // A split deployment whose signer or simulators have not started yet: the next start of a core funds them.
    await fundHotWallet(db, network, dev).catch((err: unknown) =>
      console.warn(`${network.key}: the demo hot wallet is not funded yet: ${String(err)}`),
    );
  }
}

/** Test coins for an empty demo hot wallet, in each currency of the network. */
async function fundHotWallet(db: pg.Pool, network: Network, dev: DevTools): Promise<void> {
  const hot = await hotWallet(db, network);
  let funded = false;
  for (const [currency, precision] of network.currencies) {
    if ((await network.chain.balance(hot.address, currency)) > 0n) continue;
    const amount = DEMO_BALANCES[currency] ?? '1000';
    // Ten demo balances: the demo users' balances are covered on chain (the solvency check passes), with a float.
    await dev.faucet(hot.address, currency, 10n * toUnits(amount, precision));
    funded = true;
  }
  if (funded) await dev.mine(1);
}
