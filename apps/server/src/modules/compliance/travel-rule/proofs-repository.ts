import type pg from 'pg';
import type { Tx } from '../../../db/pool.ts';

type Db = pg.Pool | Tx;

/** A challenge just issued: its id (bigint as text) and when it expires. */
export interface IssuedChallenge {
  id: string;
  expires_at: Date;
}

/**
 * Records a challenge for the user to sign with the saved address `address` (beneficiary `beneficiaryId`), valid
 * for `minutes` from the database's now.
 */
export async function insertChallenge(
  db: Db,
  c: { userId: string; beneficiaryId: string; address: string; message: string; minutes: number },
): Promise<IssuedChallenge> {
  const row = (
    await db.query<IssuedChallenge>(
      `insert into address_proof_challenges (user_id, beneficiary_id, address, message, expires_at)
       values ($1, $2, $3, $4, now() + make_interval(mins => $5)) returning id, expires_at`,
      [c.userId, c.beneficiaryId, c.address, c.message, c.minutes],
    )
  ).rows[0];
  if (!row) throw new Error('the challenge was not recorded');
  return row;
}

/**
 * Counts a try against the user's challenge for this saved address, if it is unused, unexpired and has tries
 * left (fewer than `maxAttempts`); its message then, else undefined (nothing counted).
 */
export async function countChallengeAttempt(
  db: Db,
  c: { challengeId: number; userId: string; beneficiaryId: string; address: string; maxAttempts: number },
): Promise<string | undefined> {
  return (
    await db.query<{ message: string }>(
      `update address_proof_challenges set attempts = attempts + 1
       where id = $1 and user_id = $2 and beneficiary_id = $3 and address = $4
         and used_at is null and expires_at > now() and attempts < $5
       returning message`,
      [c.challengeId, c.userId, c.beneficiaryId, c.address, c.maxAttempts],
    )
  ).rows[0]?.message;
}

/** Uses the challenge up; false when it was used already (another submission recorded it first). */
export async function useChallenge(db: Db, challengeId: number): Promise<boolean> {
  const used = await db.query(
    'update address_proof_challenges set used_at = now() where id = $1 and used_at is null',
    [challengeId],
  );
  return used.rowCount === 1;
}

/** Records the proof of control on the saved address (while it still has this address). */
export async function recordOwnershipProof(
  db: Db,
  beneficiaryId: string,
  address: string,
  proof: { method: string | null; challenge_id: number; message: string; signature: string },
): Promise<void> {
  await db.query(
    `update beneficiaries set ownership_proved_at = now(), ownership_proof = $3::jsonb, updated_at = now()
       where id = $1 and address = $2`,
    [beneficiaryId, address, JSON.stringify(proof)],
  );
}
