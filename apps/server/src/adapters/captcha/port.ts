/** Checks a captcha answer sent with a form; throws AppError with an `identity.captcha.*` code on failure. */
export interface CaptchaPort {
  verify(response: string | undefined, ip: string): Promise<void>;
}

/** Captcha type `none`: every request passes. */
export const noCaptcha: CaptchaPort = { verify: async () => {} };
