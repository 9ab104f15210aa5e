import { ERRORS } from '@exchange/shared';
import { AppError } from '../../http/errors.ts';
import type { CaptchaPort } from './port.ts';

const VERIFY_URL = 'https://www.google.com/recaptcha/api/siteverify';

/** Google reCAPTCHA: the answer is checked with Google's siteverify API (needs the internet). */
export function createRecaptcha(secret: string, verifyUrl = VERIFY_URL): CaptchaPort {
  return {
    async verify(response, ip) {
      if (!response) throw new AppError(422, [ERRORS.captchaRequired]);
      const body = new URLSearchParams({ secret, response, remoteip: ip });
      const answer = await fetch(verifyUrl, { method: 'POST', body, signal: AbortSignal.timeout(5000) })
        .then((r) => r.json() as Promise<{ success?: boolean }>)
        .catch(() => ({ success: false }));
      if (!answer.success) throw new AppError(422, [ERRORS.captchaInvalid]);
    },
  };
}
