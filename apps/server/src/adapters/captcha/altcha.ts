import { ERRORS } from '@exchange/shared';
import { CappedMap, type Challenge, createChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { verify } from 'altcha-lib/frameworks/shared';
import { AppError } from '../../http/errors.ts';
import type { CaptchaPort } from './port.ts';

/** Proof-of-work difficulty: 16 leading zero bits of SHA-256, about a second of work in a browser. */
const KEY_PREFIX = '0000';
const TTL_SECONDS = 600;

/** The self-hosted ALTCHA captcha: challenges signed with our key, each solution accepted once. */
export interface AltchaCaptcha extends CaptchaPort {
  challenge(): Promise<Challenge>;
}

/** Builds the ALTCHA adapter around an HMAC secret (derived from the server secret). */
export function createAltchaCaptcha(hmacSecret: string): AltchaCaptcha {
  const used = new CappedMap<string, boolean>({ maxSize: 100_000 });
  return {
    challenge: () =>
      createChallenge({
        algorithm: 'SHA-256',
        cost: 1,
        keyPrefix: KEY_PREFIX,
        deriveKey,
        hmacSignatureSecret: hmacSecret,
        expiresAt: Math.floor(Date.now() / 1000) + TTL_SECONDS,
      }),
    async verify(response) {
      if (!response) throw new AppError(422, [ERRORS.captchaRequired]);
      const result = await verify(response, deriveKey, hmacSecret, undefined, used).catch(() => null);
      if (!result?.verification?.verified || result.error) throw new AppError(422, [ERRORS.captchaInvalid]);
    },
  };
}
