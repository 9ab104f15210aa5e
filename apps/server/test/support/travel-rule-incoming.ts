import { expect } from 'vitest';
import { adminCall, type Person } from './staff.ts';
import type { Member, WalletSuite } from './wallet.ts';

/**
 * Helpers of the incoming travel-rule tests (deposits from another provider, on tron-sim): a deposit sent from
 * the simulator's faucet, its row, the records and attributions the travel-rule simulator is told, and the
 * console's decisions.
 */
export function incomingKit(w: WalletSuite) {
  const pool = () => w.t.db.pool;
  return {
    /** Sends `trx` TRX from the simulator's faucet to `who`'s deposit address and records it (one block). */
    async sent(who: Member, trx: bigint) {
      const address = await w.depositAddress(who);
      const txid = await w.tron.faucet(address, 'trx', trx * 1_000_000n);
      await w.mine(1);
      const row = (
        await pool().query('select id::int, from_address from deposits where txid = $1 and address = $2', [
          txid,
          address,
        ])
      ).rows[0];
      return { txid, address, id: row.id as number, from: row.from_address as string };
    },

    /** The deposit's state, travel-rule status and record, and whether it was credited. */
    deposit: async (id: number) =>
      (
        await pool().query(
          `select state, travel_rule_status, travel_rule, credited_at is not null as credited from deposits where id = $1`,
          [id],
        )
      ).rows[0],

    /** The record a sending provider delivered for a transfer to our address. */
    delivered: (txid: string, address: string, provider: string, payload: unknown) =>
      pool().query(
        `insert into travel_rule_sim_incoming (blockchain_key, txid, address, provider_id, payload)
         values ('tron-sim', $1, $2, $3, $4::jsonb)`,
        [txid, address, provider, JSON.stringify(payload)],
      ),

    /** An IVMS 101 record from the sending provider, naming the originator or not. */
    originatorRecord: (from: string, named: boolean) => ({
      originator: {
        originatorPersons: [
          {
            naturalPerson: {
              name: {
                nameIdentifier: named
                  ? [{ primaryIdentifier: 'Lis', secondaryIdentifier: 'Piotr', nameIdentifierType: 'LEGL' }]
                  : [],
              },
            },
          },
        ],
        accountNumber: [from],
      },
      beneficiary: { beneficiaryPersons: [], accountNumber: [] },
    }),

    /** `POST /admin/travel_rule/deposits/:id/release|return` as `who`, with a reason unless none is given. */
    decide: (who: Person, id: number, decision: 'release' | 'return', reason?: string) =>
      adminCall(
        w.t,
        'POST',
        `/travel_rule/deposits/${id}/${decision}`,
        who.headers,
        reason === undefined ? {} : { reason },
      ),

    /** The customer's deposit history, as the web app reads it. */
    async history(who: Member): Promise<{ id: number; state: string; message?: string | null }[]> {
      const res = await w.t.app.inject({
        method: 'GET',
        url: '/api/v2/peatio/account/deposits',
        headers: who.headers,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    },
  };
}
