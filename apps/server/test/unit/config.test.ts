import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

describe('configuration', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 3000, host: '127.0.0.1', captchaType: 'altcha', devTools: true });
    expect(config.altchaDifficultyBits).toBe(16);
    expect(config.databaseUrl).toBeUndefined();
  });

  it('turns dev tools and demo users off in production unless asked', () => {
    // Production refuses to start without SECRET_KEY; give it one.
    const production = { NODE_ENV: 'production', SECRET_KEY: 'k'.repeat(32) };
    expect(loadConfig(production)).toMatchObject({ devTools: false, seedDemo: false });
    expect(loadConfig({ ...production, DEV_TOOLS: 'true' }).devTools).toBe(true);
  });

  it('runs the demo liquidity bot with the demo books, never in production', () => {
    expect(loadConfig({}).demoBot).toEqual({ enabled: true, intervalMs: 3000 });
    expect(loadConfig({ DEMO_BOT: 'off' }).demoBot.enabled).toBe(false);
    expect(loadConfig({ DEMO_BOOKS: 'false' }).demoBot.enabled).toBe(false);
    const production = { NODE_ENV: 'production', SECRET_KEY: 'k'.repeat(32) };
    // Demo data asked for in production still gets no bot.
    expect(loadConfig({ ...production, SEED_DEMO: 'true' }).demoBot.enabled).toBe(false);
    expect(() => loadConfig({ ...production, DEMO_BOT: 'on' })).toThrow(/DEMO_BOT: the demo bot never runs/);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['DATABASE_OWNER_URL', 'mysql://x'],
    // The owner of an external database goes with DATABASE_URL; the embedded server has roles of its own.
    ['DATABASE_OWNER_URL', 'postgresql://owner@db/exchange'],
    ['SMTP_URL', 'http://mail'],
    ['MAIL_PROVIDER', 'pigeon'],
    ['CAPTCHA_TYPE', 'hcaptcha'],
    ['ALTCHA_DIFFICULTY_BITS', '10'],
    ['ALTCHA_DIFFICULTY_BITS', '0'],
    ['ALTCHA_DIFFICULTY_BITS', '28'],
    ['LOG_LEVEL', 'loud'],
    ['DEV_TOOLS', 'maybe'],
    ['TRUST_PROXY', 'true'],
    ['TRUST_PROXY', '11'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['MAIL_RETENTION_DAYS', '0'],
    ['MAIL_RETENTION_DAYS', '1.5'],
    ['BANK_PROVIDER', 'acme'],
    ['BANK_WEBHOOK_SECRET', 'short'],
    ['SMS_PROVIDER', 'carrier-pigeon'],
    ['TWILIO_ACCOUNT_SID', 'AC123'],
    ['TWILIO_FROM', '0049 30 1234'],
  ])('stops on a bad %s with a one-line message naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    try {
      loadConfig({ [name]: value });
    } catch (err) {
      expect((err as Error).message).toMatch(new RegExp(`^Invalid configuration: ${name}: `));
      expect((err as Error).message).not.toContain('\n');
    }
  });

  it('sends mail to SMTP_URL when set, else to the mail simulator, and refuses MAIL_PROVIDER=smtp without a server', () => {
    expect(loadConfig({}).mailProvider).toBe('simulator');
    expect(loadConfig({ SMTP_URL: 'smtp://mail:25' }).mailProvider).toBe('smtp');
    expect(loadConfig({ MAIL_PROVIDER: 'outbox' }).mailProvider).toBe('outbox');
    expect(() => loadConfig({ MAIL_PROVIDER: 'smtp' })).toThrow(
      /^Invalid configuration: SMTP_URL: MAIL_PROVIDER=smtp needs SMTP_URL$/,
    );
  });

  it('takes TRUST_PROXY as a hop count or the proxies\' addresses, never as "every hop"', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.5, 10.1.0.0/16,::1' }).trustProxy).toEqual([
      '10.0.0.5',
      '10.1.0.0/16',
      '::1',
    ]);
    expect(loadConfig({ TRUST_PROXY: 'loopback' }).trustProxy).toEqual(['loopback']);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY: true would trust every hop/);
  });

  it('selects the bank simulator by default, and a real bank with the secret of its notifications', () => {
    expect(loadConfig({}).bank).toMatchObject({ provider: 'simulator', webhookSecret: undefined });
    // A real bank without the secret its notifications are signed with: refused, naming the missing variable.
    expect(() => loadConfig({ BANK_PROVIDER: 'external' })).toThrow(
      /^Invalid configuration: BANK_WEBHOOK_SECRET: .*required with BANK_PROVIDER=external$/,
    );
    const secret = 'b'.repeat(32);
    expect(loadConfig({ BANK_PROVIDER: 'external', BANK_WEBHOOK_SECRET: secret }).bank).toMatchObject({
      provider: 'external',
      webhookSecret: secret,
    });
  });

  it('sends texts to the SMS simulator by default, and through Twilio with its account and a sender', () => {
    expect(loadConfig({}).sms).toMatchObject({ provider: 'simulator', twilio: undefined });
    expect(() => loadConfig({ SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: `AC${'a'.repeat(32)}` })).toThrow(
      /^Invalid configuration: TWILIO_ACCOUNT_SID: .*required with SMS_PROVIDER=twilio$/,
    );
    const account = { TWILIO_ACCOUNT_SID: `AC${'a'.repeat(32)}`, TWILIO_AUTH_TOKEN: 'f'.repeat(32) };
    expect(loadConfig({ SMS_PROVIDER: 'twilio', ...account, TWILIO_FROM: '+15005550006' }).sms).toMatchObject(
      {
        provider: 'twilio',
        twilio: { baseUrl: 'https://api.twilio.com', sender: { from: '+15005550006' } },
      },
    );
    const service = `MG${'b'.repeat(32)}`;
    expect(
      loadConfig({
        SMS_PROVIDER: 'twilio',
        ...account,
        TWILIO_MESSAGING_SERVICE_SID: service,
        TWILIO_API_URL: 'http://127.0.0.1:4005/sms-sim/',
      }).sms.twilio,
    ).toMatchObject({ baseUrl: 'http://127.0.0.1:4005/sms-sim', sender: { messagingServiceSid: service } });
  });
});
