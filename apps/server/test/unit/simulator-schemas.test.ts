import { describe, expect, it } from 'vitest';
import { simulatorSchemas } from '../../src/compose-schemas.ts';
import { loadConfig } from '../../src/config.ts';

/** Every provider real (the settings of built-server.test.ts's real-provider start). */
const REAL_PROVIDERS = {
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
};

async function sets(env: Record<string, string>): Promise<string[]> {
  return (await simulatorSchemas(loadConfig({ NODE_ENV: 'test', ...env }))).map(
    (set) => `${set.name} ${set.table}`,
  );
}

describe("the simulators' migrations a start applies (issue 34)", () => {
  it("are every simulator's by default, each with its own record", async () => {
    expect(await sets({})).toEqual([
      'provider-sims sim_schema_migrations',
      'chain-sim/bitcoin btcsim_schema_migrations',
      'chain-sim/tron tronsim_schema_migrations',
    ]);
  });

  it("are only the chain simulators' with every provider real, and none on real nodes too", async () => {
    expect(await sets(REAL_PROVIDERS)).toEqual([
      'chain-sim/bitcoin btcsim_schema_migrations',
      'chain-sim/tron tronsim_schema_migrations',
    ]);
    expect(
      await sets({
        ...REAL_PROVIDERS,
        BTC_RPC_URL: 'http://127.0.0.1:9',
        TRON_API_URL: 'http://127.0.0.1:9',
      }),
    ).toEqual([]);
    expect(await sets({ BTC_RPC_URL: 'http://127.0.0.1:9' })).toEqual([
      'provider-sims sim_schema_migrations',
      'chain-sim/tron tronsim_schema_migrations',
    ]);
  });

  it("include the provider simulators' when any one provider is simulated", async () => {
    const { SMS_PROVIDER: _, ...smsSimulated } = REAL_PROVIDERS;
    expect(await sets({ ...smsSimulated, BTC_RPC_URL: 'http://x:1', TRON_API_URL: 'http://x:2' })).toEqual([
      'provider-sims sim_schema_migrations',
    ]);
  });
});
