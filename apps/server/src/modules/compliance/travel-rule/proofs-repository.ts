import type pg from 'pg';
import type { NoRows, Tx } from '../../../db/pool.ts';

type Db = pg.Pool | Tx;

/** A challenge just issued: its id (bigint as text) and when it expires. */
export interface IssuedChallenge {
  id: string;
  expires_at: Date;
}

/**
 * Records a challenge for the user to sign with the saved address `address` (beneficiary `beneficiaryId`), issued
 * at `at` (the app's clock) and valid for `minutes` from then.
 */
export async function insertChallenge(
  db: Db,
  c: { userId: string; beneficiaryId: string; address: string; message: string; minutes: number; at: Date },
): Promise<IssuedChallenge> {
  const row = (
    await db.query<IssuedChallenge>(
      `insert into address_proof_challenges (user_id, beneficiary_id, address, message, created_at, expires_at)
       values ($1, $2, $3, $4, $6, $6::timestamptz + make_interval(mins => $5)) returning id, expires_at`,
      [c.userId, c.beneficiaryId, c.address, c.message, c.minutes, c.at],
    )
  ).rows[0];
  if (!row) throw new Error('the challenge was not recorded');
  return row;
}

/**
 * Counts a try against the user's challenge for this saved address, if it is unused, unexpired at `now` (the
 * app's clock) and has tries left (fewer than `maxAttempts`); its message then, else undefined (nothing counted).
 */
export async function countChallengeAttempt(
  db: Db,
  c: {
    challengeId: number;
    userId: string;
    beneficiaryId: string;
    address: string;
    maxAttempts: number;
    now: Date;
  },
): Promise<string | undefined> {
  return (
    await db.query<{ message: string }>(
      `update address_proof_challenges set attempts = attempts + 1
       where id = $1 and user_id = $2 and beneficiary_id = $3 and address = $4
         and used_at is null and expires_at > $6 and attempts < $5
       returning message`,
      [c.challengeId, c.userId, c.beneficiaryId, c.address, c.maxAttempts, c.now],
    )
  ).rows[0]?.message;
}

/** Uses the challenge up at `at`; false when it was used already (another submission recorded it first). */
export async function useChallenge(db: Db, challengeId: number, at: Date): Promise<boolean> {
  const used = await db.query<NoRows>(
    'update address_proof_challenges set used_at = $2 where id = $1 and used_at is null',
    [challengeId, at],
  );
  return used.rowCount === 1;
}

/** Records the proof of control on the saved address at `at` (while it still has this address). */
export async function recordOwnershipProof(
  db: Db,
  beneficiaryId: string,
  address: string,
  proof: { method: string | null; challenge_id: number; message: string; signature: string },
  at: Date,
): Promise<void> {
  await db.query(
    `update beneficiaries set ownership_proved_at = $4, ownership_proof = $3::jsonb, updated_at = now()
       where id = $1 and address = $2`,
    [beneficiaryId, address, JSON.stringify(proof), at],
  );
}
