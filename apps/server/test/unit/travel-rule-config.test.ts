import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';

describe('travel-rule configuration', () => {
  it('has a fictional directory, a EUR 1,000 threshold in cents and the simulator by default', () => {
    const { travelRule } = loadConfig({});
    expect(travelRule.providers.map((p) => p.id)).toEqual(['vistula', 'nordwind', 'alpenkrypto']);
    expect(travelRule.selfHostedThresholdCents).toBe(100_000n);
    expect(travelRule).toMatchObject({
      protocol: 'simulator',
      holdUndeclared: false,
      eurPerUsdt: '0.92',
      incomingWaitMinutes: 60,
    });
  });

  it('reads the directory as JSON and the threshold exactly', () => {
    const { travelRule } = loadConfig({
      TRAVEL_RULE_PROVIDERS: '[{"id":"acme","name":"Acme VASP","lei":"5299000J2N45DDNE4Y28"}]',
      TRAVEL_RULE_SELF_HOSTED_EUR: '999.99',
    });
    expect(travelRule.providers).toEqual([{ id: 'acme', name: 'Acme VASP', lei: '5299000J2N45DDNE4Y28' }]);
    expect(travelRule.selfHostedThresholdCents).toBe(99_999n);
  });

  it.each([
    [{ TRAVEL_RULE_PROVIDERS: 'not json' }, /TRAVEL_RULE_PROVIDERS/],
    [{ TRAVEL_RULE_PROVIDERS: '[{"id":"a","name":"A"},{"id":"a","name":"B"}]' }, /TRAVEL_RULE_PROVIDERS/],
    [{ TRAVEL_RULE_SELF_HOSTED_EUR: '1000.001' }, /TRAVEL_RULE_SELF_HOSTED_EUR/],
    [{ TRAVEL_RULE_PROTOCOL: 'http' }, /TRAVEL_RULE_URL: required/],
    [{ TRAVEL_RULE_INCOMING_WAIT_MINUTES: '-1' }, /TRAVEL_RULE_INCOMING_WAIT_MINUTES/],
  ])('refuses %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
