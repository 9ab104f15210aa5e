import { randomBytes } from 'node:crypto';
import {
  type BeneficiaryItem,
  type OwnershipChallenge,
  type OwnershipProofInput,
  TRAVEL_RULE_ERRORS,
} from '@exchange/shared';
import type pg from 'pg';
import { type Clock, dateOf } from '../../../clock.ts';
import { withTransaction } from '../../../db/pool.ts';
import { invalid } from '../../../http/errors.ts';
import type { RequestOrigin } from '../../identity/registration.ts';
import type { UserRecord } from '../../identity/users-repository.ts';
import { findBeneficiary, getBeneficiary, recordBeneficiaryActivity } from '../../wallet/beneficiaries.ts';
import type { TravelRuleConfig } from './config.ts';
import {
  countChallengeAttempt,
  insertChallenge,
  recordOwnershipProof,
  useChallenge,
} from './proofs-repository.ts';
import { proofMethod, verifyAddressProof } from './signatures.ts';

/** Wrong signatures allowed per challenge before a new one must be asked for. */
export const MAX_PROOF_ATTEMPTS = 5;

export interface ProofDeps {
  db: pg.Pool;
  config: Pick<TravelRuleConfig, 'vasp' | 'challengeMinutes'>;
  /** The app's clock (clock.ts): the time a challenge's message says it was issued. */
  clock: Clock;
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
  const issuedAt = dateOf(deps.clock);
  const message = [
    `${deps.config.vasp.name}: proof of control of a withdrawal address`,
    `Address: ${row.address}`,
    `Account: ${user.uid}`,
    `Nonce: ${randomBytes(16).toString('hex')}`,
    `Issued: ${issuedAt.toISOString()}`,
    'Signing this message moves no funds.',
  ].join('\n');
  const inserted = await insertChallenge(deps.db, {
    userId: user.id,
    beneficiaryId: row.id,
    address: row.address,
    message,
    minutes: deps.config.challengeMinutes,
    at: issuedAt,
  });
  return {
    challenge_id: Number(inserted.id),
    address: row.address,
    method,
    message,
    expires_at: inserted.expires_at.toISOString(),
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
  const now = dateOf(deps.clock);
  const message = await countChallengeAttempt(deps.db, {
    challengeId: input.challenge_id,
    userId: user.id,
    beneficiaryId: row.id,
    address: row.address,
    maxAttempts: MAX_PROOF_ATTEMPTS,
    now,
  });
  if (message === undefined) throw invalid(TRAVEL_RULE_ERRORS.challengeInvalid);
  if (!verifyAddressProof(row.address, message, input.signature))
    throw invalid(TRAVEL_RULE_ERRORS.signatureInvalid);
  await withTransaction(deps.db, async (tx) => {
    // Two tabs submitting the same challenge: the first one records it.
    if (!(await useChallenge(tx, input.challenge_id, now)))
      throw invalid(TRAVEL_RULE_ERRORS.challengeInvalid);
    await recordOwnershipProof(
      tx,
      row.id,
      row.address,
      {
        method: proofMethod(row.address),
        challenge_id: input.challenge_id,
        message,
        signature: input.signature,
      },
      now,
    );
    // In the owner's security log, like the address's other changes (topic `beneficiary`).
    await recordBeneficiaryActivity(tx, user.id, 'beneficiary.prove', row, origin);
  });
  return getBeneficiary(deps.db, user.id, beneficiaryId);
}
