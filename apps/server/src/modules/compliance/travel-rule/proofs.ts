import { randomBytes } from 'node:crypto';
import {
  type BeneficiaryItem,
  type OwnershipChallenge,
  type OwnershipProofInput,
  TRAVEL_RULE_ERRORS,
} from '@exchange/shared';
import type pg from 'pg';
import { withTransaction } from '../../../db/pool.ts';
import { invalid } from '../../../http/errors.ts';
import type { RequestOrigin } from '../../identity/registration.ts';
import type { UserRecord } from '../../identity/users-repository.ts';
import { findBeneficiary, getBeneficiary, recordBeneficiaryActivity } from '../../wallet/beneficiaries.ts';
import type { TravelRuleConfig } from './config.ts';
import { proofMethod, verifyAddressProof } from './signatures.ts';

/** Wrong signatures allowed per challenge before a new one must be asked for. */
export const MAX_PROOF_ATTEMPTS = 5;

export interface ProofDeps {
  db: pg.Pool;
  config: Pick<TravelRuleConfig, 'vasp' | 'challengeMinutes'>;
}

/**
 * Issues a message for the customer to sign with a saved self-hosted address. It names the address, the account
 * and a random nonce, so a signature made for someone else, another address or an earlier challenge proves
 * nothing here. Another user's address is "not found".
 * @throws 422 `account.beneficiary.proof_not_needed` (not self-hosted), `account.beneficiary.proof_unsupported`.
 */
export async function issueChallenge(
  deps: ProofDeps,
  user: UserRecord,
  beneficiaryId: number,
): Promise<OwnershipChallenge> {
  const row = await findBeneficiary(deps.db, user.id, beneficiaryId);
  if (row.hosting !== 'self_hosted') throw invalid(TRAVEL_RULE_ERRORS.proofNotNeeded);
  const method = proofMethod(row.address);
  if (!method) throw invalid(TRAVEL_RULE_ERRORS.proofUnsupported);
  const issuedAt = new Date();
  const message = [
    `${deps.config.vasp.name}: proof of control of a withdrawal address`,
    `Address: ${row.address}`,
    `Account: ${user.uid}`,
    `Nonce: ${randomBytes(16).toString('hex')}`,
    `Issued: ${issuedAt.toISOString()}`,
    'Signing this message moves no funds.',
  ].join('\n');
  const inserted = (
    await deps.db.query(
      `insert into address_proof_challenges (user_id, beneficiary_id, address, message, expires_at)
       values ($1, $2, $3, $4, now() + make_interval(mins => $5)) returning id, expires_at`,
      [user.id, row.id, row.address, message, deps.config.challengeMinutes],
    )
  ).rows[0];
  return {
    challenge_id: Number(inserted.id),
    address: row.address,
    method,
    message,
    expires_at: (inserted.expires_at as Date).toISOString(),
  };
}

/**
 * Checks a signature of one of the user's own challenges for this address, and on success records the proof on
 * the saved address (once: the challenge is used up) and in the security log (`beneficiary.prove`). Each try
 * counts against the challenge.
 * @throws 422 `account.beneficiary.invalid_challenge` (unknown, another user's or address's, used, expired,
 * out of attempts), `account.beneficiary.invalid_signature`.
 */
export async function submitProof(
  deps: ProofDeps,
  user: UserRecord,
  beneficiaryId: number,
  input: OwnershipProofInput,
  origin: RequestOrigin | null = null,
): Promise<BeneficiaryItem> {
  const row = await findBeneficiary(deps.db, user.id, beneficiaryId);
  const challenge = (
    await deps.db.query(
      `update address_proof_challenges set attempts = attempts + 1
       where id = $1 and user_id = $2 and beneficiary_id = $3 and address = $4
         and used_at is null and expires_at > now() and attempts < $5
       returning message`,
      [input.challenge_id, user.id, row.id, row.address, MAX_PROOF_ATTEMPTS],
    )
  ).rows[0] as { message: string } | undefined;
  if (!challenge) throw invalid(TRAVEL_RULE_ERRORS.challengeInvalid);
  if (!verifyAddressProof(row.address, challenge.message, input.signature))
    throw invalid(TRAVEL_RULE_ERRORS.signatureInvalid);
  await withTransaction(deps.db, async (tx) => {
    const used = await tx.query(
      'update address_proof_challenges set used_at = now() where id = $1 and used_at is null',
      [input.challenge_id],
    );
    // Two tabs submitting the same challenge: the first one records it.
    if (used.rowCount !== 1) throw invalid(TRAVEL_RULE_ERRORS.challengeInvalid);
    await tx.query(
      `update beneficiaries set ownership_proved_at = now(), ownership_proof = $3::jsonb, updated_at = now()
       where id = $1 and address = $2`,
      [
        row.id,
        row.address,
        JSON.stringify({
          method: proofMethod(row.address),
          challenge_id: input.challenge_id,
          message: challenge.message,
          signature: input.signature,
        }),
      ],
    );
    // In the owner's security log, like the address's other changes (topic `beneficiary`).
    await recordBeneficiaryActivity(tx, user.id, 'beneficiary.prove', row, origin);
  });
  return getBeneficiary(deps.db, user.id, beneficiaryId);
}
