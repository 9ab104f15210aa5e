import {
  type AdminClosureEntity,
  adminClosureResponse,
  adminClosuresQuery,
  formatUnits,
  type StaffPermission,
} from '@exchange/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { z } from 'zod';
import type { Core } from '../../core/index.ts';
import { docs } from '../../http/openapi.ts';
import type { Staff } from '../admin/access.ts';
import type { ClosureRouteDeps } from './deps.ts';
import { precisions } from './repository.ts';

/** Queue rows at most: the closures are few, and the console shows the newest first. */
const QUEUE_LIMIT = 200;

/**
 * The operator console's closure queue (`GET /api/v2/admin/closures`, permission `users.read`): closures under way,
 * those past 30 days with a balance that has no withdrawal on its way ("for conversion to fiat"), and closed
 * accounts with their retention dates. It only reads: a conversion is a ledger adjustment, proposed and approved
 * by two accountants through the adjustments queue, which refuses a staff member's own account.
 */
export function adminClosureRoutes(
  app: FastifyInstance,
  deps: ClosureRouteDeps,
  staff: (request: FastifyRequest, permission: StaffPermission) => Promise<Staff>,
): void {
  app.get(
    '/closures',
    docs('Account closures: under way, for conversion to fiat, closed', {
      query: adminClosuresQuery,
      response: z.array(adminClosureResponse),
    }),
    async (request) => {
      await staff(request, 'users.read');
      const { state } = adminClosuresQuery.parse(request.query);
      return closureQueue(deps.db, deps.core, state);
    },
  );
}

/** The queue for one filter, newest request first. */
export async function closureQueue(
  db: pg.Pool,
  core: Core,
  filter: 'open' | 'for_conversion' | 'closed' | 'all',
): Promise<AdminClosureEntity[]> {
  const rows = (
    await db.query(
      `select c.id::int, u.id::text as user_id, u.uid, u.email, c.state, c.requested_at, c.conversion_due_at,
              c.closed_at, c.records_erase_at, c.correspondence_erase_at,
              array(select w.currency_id from account_closure_withdrawals l join withdrawals w on w.id = l.withdrawal_id
                     where l.closure_id = c.id and w.state not in ('rejected', 'canceled', 'failed', 'skipped'))
                as sent_currencies
         from account_closures c join users u on u.id = c.user_id
        where ($1 = 'all' or c.state = case when $1 = 'for_conversion' then 'open' else $1 end)
        order by c.requested_at desc limit $2`,
      [filter, QUEUE_LIMIT],
    )
  ).rows;
  const scale = await precisions(db);
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  const now = Date.now();
  const items = rows.map((r): AdminClosureEntity => {
    const held = core.sequencer.state
      .balances(Number(r.user_id))
      .filter((b) => b.balance > 0n || b.locked > 0n);
    // A balance with nothing on its way to an address of the user's, 30 days after the request.
    const waiting = held.some((b) => b.balance > 0n && !(r.sent_currencies as string[]).includes(b.currency));
    return {
      id: r.id,
      uid: r.uid,
      email: r.email,
      state: r.state,
      requested_at: r.requested_at.toISOString(),
      conversion_due_at: r.conversion_due_at.toISOString(),
      closed_at: iso(r.closed_at),
      records_erase_at: iso(r.records_erase_at),
      correspondence_erase_at: iso(r.correspondence_erase_at),
      for_conversion: r.state === 'open' && r.conversion_due_at.getTime() <= now && waiting,
      balances: held.map((b) => {
        const p = scale.get(b.currency) ?? 8;
        return { currency: b.currency, balance: formatUnits(b.balance, p), locked: formatUnits(b.locked, p) };
      }),
    };
  });
  return filter === 'for_conversion' ? items.filter((i) => i.for_conversion) : items;
}
