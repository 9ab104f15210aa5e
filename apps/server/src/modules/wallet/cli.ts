import { API, resolveWithdrawalSchema } from '@exchange/shared';
import type pg from 'pg';
import type { Config } from '../../config.ts';
import { requestAdjustment } from './adjustments.ts';
import { adjustmentState } from './adjustments-repository.ts';
import { chainAlerts } from './chain-alerts-repository.ts';
import { nativeCurrencyOn } from './networks-repository.ts';
import { resolveErrored } from './withdraw-review.ts';
import { erroredWithdrawals } from './withdrawals-repository.ts';

/** The wallet's operator commands, with their usage lines for the command line's help. */
export const WALLET_USAGE = `  faucet <blockchain_key> <address> <amount> [currency]
                            send test coins to an address on a simulated or devnet chain (app must run)
  mine <blockchain_key> [blocks]
                            mine blocks on a simulated chain (app must run)
  adjust <email> <currency> <amount> [reason]
                            credit (or, negative, debit) a balance as an admin adjustment
  alerts                    chain alerts: reorgs under deposits that were already credited
  withdraw errored          withdrawals whose broadcast outcome is unknown
  withdraw resolve <id> sent <txid> | failed
                            after checking the chain: it was sent (follow it to confirmation), or it
                            never left (the app releases the funds)`;

/** Runs a wallet command; `undefined` when `argv` is not one. */
export async function walletCommand(
  argv: string[],
  db: pg.Pool,
  config: Config,
): Promise<number | undefined> {
  const [area, ...args] = argv;
  if (area === 'faucet' && args.length >= 3) {
    const [key, address, amount, currency] = args as [string, string, string, string | undefined];
    const native = currency ?? (await nativeCurrency(db, key));
    return devCall(
      config,
      '/faucet',
      { blockchain_key: key, address, amount, currency: native },
      (r) => `sent ${amount} ${native} to ${address} on ${key}: txid ${r.txid}`,
    );
  }
  if (area === 'mine' && args.length >= 1) {
    const [key, blocks = '1'] = args as [string, string | undefined];
    return devCall(
      config,
      '/mine',
      { blockchain_key: key, blocks: Number(blocks) },
      (r) => `${key} is at height ${r.height}`,
    );
  }
  if (area === 'adjust' && args.length >= 3) {
    const [email, currency, amount, ...reason] = args as [string, string, string, ...string[]];
    const id = await requestAdjustment(db, email, currency, amount, reason.join(' '));
    const state = await waitForState(db, id);
    console.log(
      state === 'pending'
        ? `adjustment ${id} recorded; the app applies it when it runs`
        : `adjustment ${id} ${state} (${amount} ${currency} for ${email})`,
    );
    return state === 'rejected' ? 1 : 0;
  }
  if (area === 'withdraw') return withdrawCommand(args, db);
  if (area === 'alerts') {
    const rows = await chainAlerts(db);
    if (rows.length === 0) console.log('no chain alerts');
    else console.table(rows.map((r) => ({ ...r, detail: JSON.stringify(r.detail) })));
    return 0;
  }
  return undefined;
}

async function nativeCurrency(db: pg.Pool, key: string): Promise<string> {
  const currency = await nativeCurrencyOn(db, key);
  if (currency === undefined) throw new Error(`no currency on ${key}`);
  return currency;
}

/** The faucet and mining live in the running app (it owns the chains); the command line asks it over HTTP. */
async function devCall(
  config: Config,
  path: string,
  body: unknown,
  describe: (answer: Record<string, string>) => string,
): Promise<number> {
  const url = `http://127.0.0.1:${config.port}${API.dev}${path}`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    console.error(`the app is not answering on ${url}: start it with npm start, or set PORT to its port`);
    return 1;
  }
  const answer = (await res.json().catch(() => ({}))) as Record<string, string> & { errors?: string[] };
  if (!res.ok) {
    console.error(
      `refused (${res.status}): ${answer.errors?.join(', ') ?? 'no developer tools on this app?'}`,
    );
    return 1;
  }
  console.log(describe(answer));
  return 0;
}

async function waitForState(db: pg.Pool, id: number): Promise<string> {
  for (let i = 0; i < 20; i++) {
    const state = await adjustmentState(db, id);
    if (state === undefined) throw new Error(`no adjustment ${id}`);
    if (state !== 'pending') return state;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return 'pending';
}

async function withdrawCommand(args: string[], db: pg.Pool): Promise<number | undefined> {
  const [command, id, decision, txid] = args;
  if (command === 'errored') {
    const rows = await erroredWithdrawals(db);
    if (rows.length === 0) console.log('no errored withdrawals');
    else console.table(rows);
    return 0;
  }
  if (command !== 'resolve' || !id || !/^\d+$/.test(id)) return undefined;
  const parsed = resolveWithdrawalSchema.safeParse({ decision, txid });
  if (!parsed.success) return undefined;
  if (!(await resolveErrored(db, Number(id), parsed.data))) {
    console.error(`withdrawal ${id} is not errored`);
    return 1;
  }
  console.log(
    decision === 'sent'
      ? `withdrawal ${id} is confirming ${txid}; the app settles it after the confirmations`
      : `withdrawal ${id} will be released to the user by the app`,
  );
  return 0;
}
