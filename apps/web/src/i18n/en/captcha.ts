/** Captcha widget strings (accounts spec: captcha on register, login, forgot password and contact). */
export const captcha = {
  'captcha.label': "I'm not a robot",
  'captcha.verifying': 'Verifying...',
  'captcha.verified': 'Verified',
  'captcha.wait': 'Verifying... please wait.',
  'captcha.failed': 'Verification failed. Try again.',
  'captcha.expired': 'Verification expired. Try again.',
  'captcha.loading': 'Loading...',
  'captcha.recaptchaUnavailable':
    'reCAPTCHA is configured on the server, but this build does not load external scripts, so it cannot be shown.',
} as const;
