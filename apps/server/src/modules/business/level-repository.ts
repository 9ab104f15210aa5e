import type { Tx } from '../../db/pool.ts';

/**
 * Sets the user's level from what is verified: 3 when the identity document is verified (`document: verified`)
 * and, for a business account, its company too (issue 31: "level 3 for a business needs the company and its
 * representative verified"); back to 2 when either goes. Levels below 2 (no phone yet) are left alone, as is a
 * personal account's rule (its identity alone). Runs inside the transaction that changed a label or a company.
 */
export async function settleLevel(tx: Tx, userId: string): Promise<void> {
  await tx.query(
    `update users u set level = case when f.full and u.level >= 2 then 3 when not f.full and u.level = 3 then 2
       else u.level end, updated_at = now()
     from (
       select exists (select 1 from labels l where l.user_id = $1 and l.key = 'document' and l.value = 'verified')
         and (x.account_type = 'personal'
           or exists (select 1 from companies c where c.user_id = $1 and c.review_state = 'verified')) as full
       from users x where x.id = $1
     ) f
     where u.id = $1`,
    [userId],
  );
}
