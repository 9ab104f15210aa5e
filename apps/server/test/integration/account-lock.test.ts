import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../../src/db/pool.ts';
import { lockUser } from '../../src/modules/identity/users-repository.ts';
import { applyKycState, findApplicantRecord, saveApplicantId } from '../../src/modules/kyc/repository.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { within } from '../support/within.ts';

let db: TestDatabase;
let userId: string;
beforeAll(async () => {
  db = await createTestDatabase();
  userId = String(
    (
      await db.ownerPool.query(
        `insert into users (uid, email, password_digest, level, state)
         values ('ID00000LOCK1', 'lock@example.com', 'x', 2, 'active') returning id`,
      )
    ).rows[0].id,
  );
});
afterAll(async () => {
  await db?.drop();
});

/** Whether the statement of another session is waiting for a lock now. */
async function someoneWaitsForALock(): Promise<boolean> {
  // pg_locks, not pg_stat_activity: the latter hides other roles' wait events from a role that is not superuser.
  const { rows } = await db.ownerPool.query(
    `select count(*)::int as n from pg_locks l join pg_stat_activity a on a.pid = l.pid
     where not l.granted and a.datname = current_database()`,
  );
  return rows[0].n > 0;
}

describe("the account's lock", () => {
  it('lets a row that only references the account be written while a holder of the lock writes the same row', async () => {
    // The interleaving of CI's deadlock: the provider's webhook takes the account's lock, the token request
    // stores the applicant id (its foreign key checks the account's row), then the webhook writes the applicant.
    let outside: Promise<void> | undefined;
    let outsideDone = false;
    await withTransaction(db.pool, async (tx) => {
      await lockUser(tx, userId);
      outside = saveApplicantId(db.pool, userId, 'applicant-from-token', 'basic-kyc-level').then(() => {
        outsideDone = true;
      });
      // Until the outside write has either finished or stopped at a lock: then the webhook goes on.
      await within(5_000, async () => outsideDone || (await someoneWaitsForALock()));
      expect(outsideDone).toBe(true);
      await applyKycState(tx, {
        userId,
        applicantId: 'applicant-from-webhook',
        levelName: 'basic-kyc-level',
        label: 'in_review',
        document: null,
        atMs: 1_000,
        comment: null,
      });
    });
    await outside;
    const record = await findApplicantRecord(db.pool, userId);
    expect(record?.applicant_id).toBe('applicant-from-webhook');
    expect(record?.applied_at_ms).toBe('1000');
  });

  it('still lets one holder at a time change the account', async () => {
    const order: string[] = [];
    let second: Promise<void> | undefined;
    await withTransaction(db.pool, async (tx) => {
      await lockUser(tx, userId);
      second = withTransaction(db.pool, async (tx2) => {
        await lockUser(tx2, userId);
        order.push('second');
      });
      // The second holder is seen waiting for the first (throws if it never waits).
      await within(5_000, someoneWaitsForALock);
      order.push('first');
    });
    await second;
    expect(order).toEqual(['first', 'second']);
  });
});
