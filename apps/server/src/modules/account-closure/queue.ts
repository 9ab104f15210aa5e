import { type AdminClosureEntity, formatUnits } from '@exchange/shared';
import type pg from 'pg';
import type { Core } from '../../core/index.ts';
import { closureQueueRows, precisions } from './repository.ts';

/** Queue rows at most: the closures are few, and the console shows the newest first. */
const QUEUE_LIMIT = 200;

/** The queue for one filter, newest request first; a closure is due for conversion from `now` (ms) on. */
export async function closureQueue(
  db: pg.Pool,
  core: Core,
  filter: 'open' | 'for_conversion' | 'closed' | 'all',
  now: number,
): Promise<AdminClosureEntity[]> {
  const rows = await closureQueueRows(db, filter, QUEUE_LIMIT);
  const scale = await precisions(db);
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  const items = rows.map((r): AdminClosureEntity => {
    const held = core.sequencer.state
      .balances(Number(r.user_id))
      .filter((b) => b.balance > 0n || b.locked > 0n);
    // A balance with nothing on its way to an address of the user's, 30 days after the request.
    const waiting = held.some((b) => b.balance > 0n && !r.sent_currencies.includes(b.currency));
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
