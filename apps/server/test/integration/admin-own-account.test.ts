import { describe, expect, it } from 'vitest';
import { ownAccountSuite } from '../support/own-account.ts';
import { TRX } from '../support/wallet.ts';

const { s, w, staff, withdraw } = ownAccountSuite('staff on their own account: the console refuses');

describe('the database on its own', () => {
  it('refuses a decision whose decider is the account it concerns, whatever the service does', async () => {
    const own = { code: 'XCS01' };
    const proposer = await staff('db-proposer@own.test', 'accountant');
    const { who, beneficiary } = await w.withdrawer('db-self@own.test', 20n * TRX);
    const withdrawal = (await withdraw(who, beneficiary, '12')).json();
    expect(withdrawal.state).toBe('accepted');
    const self = await staff(who.email, 'accountant', who.id);
    const q = (sql: string, params: unknown[]) => s.db.query(sql, params);

    // Adjustments: neither proposed nor decided by the adjusted account; four eyes as before.
    await expect(
      q(
        `insert into adjustments (user_id, currency_id, amount, reason, state, proposed_by)
         values ($1, 'usdt', 1000, 'own', 'proposed', $1)`,
        [self.id],
      ),
    ).rejects.toMatchObject(own);
    const adjustment = (
      await q(
        `insert into adjustments (user_id, currency_id, amount, reason, state, proposed_by)
         values ($1, 'usdt', 1000, 'credit', 'proposed', $2) returning id`,
        [self.id, proposer.id],
      )
    ).rows[0].id as string;
    await expect(
      q(`update adjustments set state = 'pending', decided_by = user_id where id = $1`, [adjustment]),
    ).rejects.toMatchObject(own);
    await expect(
      q('update adjustments set decided_by = proposed_by where id = $1', [adjustment]),
    ).rejects.toThrow(/four_eyes/);

    // Withdrawals: not reviewed by the sender, nor by the recipient of a transfer inside the exchange.
    await expect(
      q('update withdrawals set reviewed_by = user_id where id = $1', [withdrawal.id]),
    ).rejects.toMatchObject(own);
    await expect(
      q('update withdrawals set internal_user_id = $2, reviewed_by = $2 where id = $1', [
        withdrawal.id,
        proposer.id,
      ]),
    ).rejects.toMatchObject(own);

    // The trail: no line of a staff member about their own account (a uid, an adjustment, a withdrawal).
    for (const target of [self.uid, `adjustment:${adjustment}`, `withdrawal:${withdrawal.id}`])
      await expect(
        q(
          `insert into staff_actions (staff_id, role, action, target) values ($1, 'accountant', 'test', $2)`,
          [self.id, target],
        ),
      ).rejects.toMatchObject(own);
    // The same lines by another staff member go in (in a transaction rolled back: the trail is append-only).
    const client = await s.db.connect();
    try {
      await client.query('begin');
      for (const target of [self.uid, `adjustment:${adjustment}`, `withdrawal:${withdrawal.id}`, 'market:x'])
        await client.query(
          `insert into staff_actions (staff_id, role, action, target) values ($1, 'accountant', 'test', $2)`,
          [proposer.id, target],
        );
    } finally {
      await client.query('rollback');
      client.release();
    }
    expect(
      (
        await q(
          'select a.state, decided_by, reviewed_by from adjustments a, withdrawals w where a.id = $1 and w.id = $2',
          [adjustment, withdrawal.id],
        )
      ).rows,
    ).toEqual([{ state: 'proposed', decided_by: null, reviewed_by: null }]);
    await q(`update adjustments set state = 'rejected' where id = $1`, [adjustment]);
  });
});
