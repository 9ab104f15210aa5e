import { expect } from 'vitest';
import { type liveClient, type Session, sql } from './live.ts';

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * TRX moving through a running app, as its users move it: a deposit from the chain simulator to a user's address,
 * and a withdrawal to another user's deposit address (settled inside the exchange at once).
 */
export function trxMoves(api: ReturnType<typeof liveClient>, dbUrl: () => string) {
  /** Deposits TRX from the chain simulator to the user's address and waits until it is credited. */
  async function deposit(who: Session, amount: string): Promise<void> {
    const address = await api.call(
      'GET',
      '/api/v2/peatio/account/deposit_address/trx?blockchain_key=tron-sim',
      undefined,
      who,
    );
    expect(address.status).toBe(200);
    const to = (address.body as { address: string }).address;
    const before = await credited(who.email);
    const sent = await api.call('POST', '/api/v2/dev/faucet', {
      blockchain_key: 'tron-sim',
      currency: 'trx',
      address: to,
      amount,
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const mined = await api.call('POST', '/api/v2/dev/mine', { blockchain_key: 'tron-sim', blocks: 31 });
    expect(mined.status).toBe(200);
    await until(`the deposit of ${amount} TRX`, async () => (await credited(who.email)) > before);
  }

  /** How many deposits of the user have been credited. */
  async function credited(email: string): Promise<number> {
    const rows = await sql<{ n: number }>(
      dbUrl(),
      `select count(*)::int as n from deposits d join users u on u.id = d.user_id
     where u.email = $1 and d.state in ('accepted', 'collecting', 'collected')`,
      [email],
    );
    return rows[0]?.n ?? 0;
  }

  const secrets = new Map<string, string>();
  const beneficiaries = new Map<string, number>();

  /** Withdraws TRX to the other user's deposit address: settled inside the exchange at once. */
  async function withdraw(from: Session, to: Session, amount: string) {
    let secret = secrets.get(from.email);
    if (!secret) {
      secret = await api.enableTwoFactor(from);
      secrets.set(from.email, secret);
    }
    let beneficiary = beneficiaries.get(from.email);
    if (beneficiary === undefined) {
      const address = await api.call(
        'GET',
        '/api/v2/peatio/account/deposit_address/trx?blockchain_key=tron-sim',
        undefined,
        to,
      );
      const created = await api.call(
        'POST',
        '/api/v2/peatio/account/beneficiaries',
        {
          name: 'to bob',
          currency: 'trx',
          blockchain_key: 'tron-sim',
          data: { address: (address.body as { address: string }).address },
        },
        from,
      );
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const pin = /Use (\d{6}) to activate/.exec(await api.lastMail(from.email))?.[1];
      const id = (created.body as { id: number }).id;
      const activated = await api.call(
        'PATCH',
        `/api/v2/peatio/account/beneficiaries/${id}/activate`,
        { pin },
        from,
      );
      expect(activated.status, JSON.stringify(activated.body)).toBe(200);
      beneficiary = id;
      beneficiaries.set(from.email, id);
    }
    const res = await api.call(
      'POST',
      '/api/v2/peatio/account/withdraws',
      {
        amount,
        otp: await api.totp(from, secret),
        beneficiary_id: beneficiary,
        currency: 'trx',
        blockchain_key: 'tron-sim',
      },
      from,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await until('the withdrawal to settle', async () => {
      const rows = await sql<{ state: string }>(
        dbUrl(),
        'select state from withdrawals order by id desc limit 1',
      );
      return rows[0]?.state === 'succeed';
    });
  }

  return { deposit, withdraw };
}
