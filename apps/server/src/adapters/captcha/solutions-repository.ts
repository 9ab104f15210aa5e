import type pg from 'pg';
import type { NoRows } from '../../db/pool.ts';

/**
 * The ALTCHA challenge ids accepted so far (`captcha_solutions`), shared by every api process: a solution accepted
 * by one is refused by all the others and after a restart.
 */

/** Records an accepted challenge id; false when some process has already recorded it. */
export async function recordSolution(db: pg.Pool, challengeId: string): Promise<boolean> {
  const inserted = await db.query<NoRows>(
    'insert into captcha_solutions (challenge_id) values ($1) on conflict do nothing',
    [challengeId],
  );
  return inserted.rowCount === 1;
}

/** Forgets the challenge ids recorded more than `olderThanSeconds` ago (their challenges expired long before). */
export async function sweepSolutions(db: pg.Pool, olderThanSeconds: number): Promise<void> {
  await db.query('delete from captcha_solutions where seen_at < now() - make_interval(secs => $1)', [
    olderThanSeconds,
  ]);
}
