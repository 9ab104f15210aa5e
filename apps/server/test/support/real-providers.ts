/**
 * Every provider real, each pointed where nothing answers (port 9): the settings of a production start that must
 * load no simulator (built-server.test.ts) and apply no simulator's schema (simulator-schemas.test.ts).
 */
export const REAL_PROVIDERS = {
  KYC_PROVIDER: 'sumsub',
  SUMSUB_BASE_URL: 'http://127.0.0.1:9',
  SUMSUB_APP_TOKEN: 'prd:real-app-token',
  SUMSUB_SECRET_KEY: 'real-secret-key-0001',
  SUMSUB_WEBHOOK_SECRET: 'real-webhook-secret-0001',
  CARD_ISSUER: 'marqeta',
  MARQETA_BASE_URL: 'http://127.0.0.1:9/v3',
  MARQETA_APP_TOKEN: 'real-app',
  MARQETA_ACCESS_TOKEN: 'real-access',
  MARQETA_CARD_PRODUCT_TOKEN: 'real-product',
  MARQETA_WEBHOOK_USERNAME: 'real-hook',
  MARQETA_WEBHOOK_PASSWORD: 'real-hook-password',
  MARQETA_WEBHOOK_SECRET: 'real-webhook-secret-0002',
  BANK_PROVIDER: 'external',
  BANK_WEBHOOK_SECRET: 'real-bank-secret-0003',
  TRAVEL_RULE_PROTOCOL: 'http',
  TRAVEL_RULE_URL: 'http://127.0.0.1:9/trp',
  SMS_PROVIDER: 'twilio',
  TWILIO_API_URL: 'http://127.0.0.1:9',
  TWILIO_ACCOUNT_SID: `AC${'0'.repeat(32)}`,
  TWILIO_AUTH_TOKEN: 'real-twilio-token-0004',
  TWILIO_FROM: '+15005550006',
  SMTP_URL: 'smtp://127.0.0.1:9',
};
