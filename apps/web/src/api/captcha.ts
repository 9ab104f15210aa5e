import { API } from '@exchange/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from './client.ts';

/** Which captcha the server asks for (`none` disables it); `captcha_id` is the reCAPTCHA site key. */
export interface CaptchaConfig {
  captcha_type: 'none' | 'altcha' | 'recaptcha';
  captcha_id?: string;
}

/** Where the ALTCHA widget fetches a fresh signed proof-of-work challenge. */
export const CAPTCHA_CHALLENGE_URL = `${API.barong}/identity/captcha/challenge`;

/** The public identity configuration (`GET /identity/configs`), read once per page load. */
export function useCaptchaConfig() {
  return useQuery({
    queryKey: ['identityConfigs'],
    queryFn: () => api<CaptchaConfig>('barong', '/identity/configs'),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
