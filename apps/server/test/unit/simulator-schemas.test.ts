import { describe, expect, it } from 'vitest';
import { simulatorSchemas } from '../../src/compose-schemas.ts';
import { loadConfig } from '../../src/config.ts';
import { REAL_PROVIDERS } from '../support/real-providers.ts';

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
    // Mail is simulated without SMTP_URL (MAIL_PROVIDER=simulator, its default then).
    const { SMTP_URL: __, ...mailSimulated } = REAL_PROVIDERS;
    expect(await sets({ ...mailSimulated, BTC_RPC_URL: 'http://x:1', TRON_API_URL: 'http://x:2' })).toEqual([
      'provider-sims sim_schema_migrations',
    ]);
    expect(
      await sets({
        ...mailSimulated,
        MAIL_PROVIDER: 'outbox',
        BTC_RPC_URL: 'http://x:1',
        TRON_API_URL: 'http://x:2',
      }),
    ).toEqual([]);
  });
});
