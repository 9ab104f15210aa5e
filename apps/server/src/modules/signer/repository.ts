import type pg from 'pg';
import type { NoRows, SelectOne, Tx } from '../../db/pool.ts';

/**
 * What the signer reads and writes in the exchange's database (as its own role, `exchange_signer`): the token
 * contracts and networks it may sign for, the withdrawals it checks, its decision log, the extended public keys it
 * publishes and the cold addresses it is configured with.
 */

type Db = pg.Pool | Tx;

/** Whether `currency` is carried on `network` at all. */
export async function carriedOn(db: Db, network: string, currency: string): Promise<boolean> {
  const row = await db.query<SelectOne>(
    'select 1 from currency_networks where blockchain_key = $1 and currency_id = $2',
    [network, currency],
  );
  return row.rowCount === 1;
}

/**
 * The currency of the token contract `contract` on `network`, or undefined. EVM addresses are compared in any case
 * (`anyCase`: checksummed or not); TRON's hex form is compared exactly.
 */
export async function tokenAt(
  db: Db,
  network: string,
  contract: string | null,
  anyCase: boolean,
): Promise<string | undefined> {
  const match = anyCase ? 'lower(contract_address) = lower($2)' : 'contract_address = $2';
  return (
    await db.query<{ currency_id: string }>(
      `select currency_id from currency_networks where blockchain_key = $1 and ${match}`,
      [network, contract],
    )
  ).rows[0]?.currency_id;
}

/** A withdrawal as the signer checks it, with its currency's precision. */
export interface WithdrawalToSign {
  state: string;
  blockchain_key: string;
  currency_id: string;
  rid: string;
  amount: string;
  fee: string;
  internal_user_id: string | null;
  precision: number;
}

/** The withdrawal with this id, or undefined. */
export async function withdrawalToSign(tx: Tx, id: number): Promise<WithdrawalToSign | undefined> {
  return (
    await tx.query<WithdrawalToSign>(
      `select w.state, w.blockchain_key, w.currency_id, w.rid, w.amount::text, w.fee::text, w.internal_user_id,
         c.precision
       from withdrawals w join currencies c on c.id = w.currency_id where w.id = $1`,
      [id],
    )
  ).rows[0];
}

/** What the signer signed today (UTC) for withdrawals of `currency` on `network`, as stored. */
export async function signedToday(tx: Tx, network: string, currency: string): Promise<string> {
  const row = (
    await tx.query<{ total: string }>(
      `select coalesce(sum(amount), 0)::text as total from signer_log
       where blockchain_key = $1 and currency_id = $2 and purpose = 'withdrawal' and decision = 'signed'
         and created_at >= date_trunc('day', now() at time zone 'utc') at time zone 'utc'`,
      [network, currency],
    )
  ).rows[0];
  return row?.total ?? '0';
}

/** One line of the signer's decision log. */
export interface SignerLogLine {
  network: string;
  purpose: string;
  reference: string | null;
  decision: 'signed' | 'refused';
  reason: string | null;
  currency: string;
  destination: string | null;
  txid: string;
}

/**
 * Records that a withdrawal was signed; false when it was signed before (one signature per withdrawal, kept by
 * the log's unique reference).
 */
export async function logSignedWithdrawal(
  tx: Tx,
  line: {
    network: string;
    reference: string;
    currency: string;
    amount: string;
    destination: string;
    txid: string;
  },
): Promise<boolean> {
  const signed = await tx.query<NoRows>(
    `insert into signer_log (blockchain_key, purpose, reference, decision, currency_id, amount, destination, txid)
     values ($1, 'withdrawal', $2, 'signed', $3, $4, $5, $6) on conflict do nothing`,
    [line.network, line.reference, line.currency, line.amount, line.destination, line.txid],
  );
  return signed.rowCount === 1;
}

/** Records a decision of the signer (any purpose, signed or refused). */
export async function logDecision(db: Db, line: SignerLogLine): Promise<void> {
  await db.query(
    `insert into signer_log (blockchain_key, purpose, reference, decision, reason, currency_id, destination, txid)
     values ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      line.network,
      line.purpose,
      line.reference,
      line.decision,
      line.reason,
      line.currency,
      line.destination,
      line.txid,
    ],
  );
}

/**
 * Publishes an account's extended public key (once: a key published before stays) and returns the one stored,
 * which the caller compares with its own.
 */
export async function publishXpub(
  db: Db,
  account: { purpose: number; coinType: number; account: number; xpub: string },
): Promise<string | undefined> {
  await db.query(
    `insert into custody_xpubs (purpose, coin_type, account, xpub) values ($1, $2, $3, $4)
     on conflict (purpose, coin_type, account) do nothing`,
    [account.purpose, account.coinType, account.account, account.xpub],
  );
  return (
    await db.query<{ xpub: string }>(
      'select xpub from custody_xpubs where purpose = $1 and coin_type = $2 and account = $3',
      [account.purpose, account.coinType, account.account],
    )
  ).rows[0]?.xpub;
}

/** Sets the network's cold address (the signer's configuration is the source of it). */
export async function setColdAddress(db: Db, network: string, address: string): Promise<void> {
  await db.query(
    `insert into cold_wallets (blockchain_key, address) values ($1, $2)
     on conflict (blockchain_key) do update set address = excluded.address, updated_at = now()`,
    [network, address],
  );
}
