import { ERRORS } from '@exchange/shared';
import { type Challenge, createChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { verify } from 'altcha-lib/frameworks/shared';
import type pg from 'pg';
import { AppError } from '../../http/errors.ts';
import type { CaptchaPort } from './port.ts';
import { recordSolution, sweepSolutions } from './solutions-repository.ts';

const TTL_SECONDS = 600;
/** Used challenge ids are swept after this many verifications, once their challenges have expired. */
const SWEEP_EVERY = 1000;

/** The self-hosted ALTCHA captcha: challenges signed with our key, each solution accepted once. */
export interface AltchaCaptcha extends CaptchaPort {
  challenge(): Promise<Challenge>;
}

/**
 * Where used challenge ids are kept: PostgreSQL, shared by every api process (as the API-key nonces are), so a
 * solution accepted by one process is refused by all the others and after a restart.
 */
function sharedSolutionStore(db: pg.Pool) {
  let recorded = 0;
  return {
    get: () => undefined,
    set: () => undefined,
    /** Records a verified challenge id; false when some process has already accepted it. */
    async setIfAbsent(challengeId: string): Promise<boolean> {
      if (++recorded % SWEEP_EVERY === 0) void sweepSolutions(db, 2 * TTL_SECONDS).catch(() => {});
      return recordSolution(db, challengeId);
    },
  };
}

/**
 * Builds the ALTCHA adapter around an HMAC secret (derived from the server secret). `difficultyBits` (a multiple
 * of 4, ALTCHA_DIFFICULTY_BITS): the leading zero bits a solution's SHA-256 must have, one hexadecimal zero of the
 * key prefix per 4 bits.
 */
export function createAltchaCaptcha(hmacSecret: string, db: pg.Pool, difficultyBits: number): AltchaCaptcha {
  const used = sharedSolutionStore(db);
  const keyPrefix = '0'.repeat(difficultyBits / 4);
  return {
    challenge: () =>
      createChallenge({
        algorithm: 'SHA-256',
        cost: 1,
        keyPrefix,
        deriveKey,
        hmacSignatureSecret: hmacSecret,
        expiresAt: Math.floor(Date.now() / 1000) + TTL_SECONDS,
      }),
    async verify(response) {
      if (!response) throw new AppError(422, [ERRORS.captchaRequired]);
      // The library records the id only once the solution verified; a store that cannot record it refuses.
      const result = await verify(response, deriveKey, hmacSecret, undefined, used).catch(() => null);
      if (!result?.verification?.verified || result.error) throw new AppError(422, [ERRORS.captchaInvalid]);
    },
  };
}
