import { expiration, generatePan, SIM_BIN } from '@exchange/provider-sims/card-issuer';
import { luhnValid } from '@exchange/shared';
import { describe, expect, it } from 'vitest';
import { verifyWebhook, webhookHeaders, webhookSignature } from '../../src/adapters/card-issuer/signing.ts';
import { loadConfig } from '../../src/config.ts';
import { redactCardNumbers, redactSecrets } from '../../src/http/redact.ts';
import { KeyedMutex, utcToday } from '../../src/modules/card/context.ts';
import { kycDecision } from '../../src/modules/card/holders.ts';
import { expiryDate, maskedNumber } from '../../src/modules/card/presenters.ts';

describe('simulated card numbers', () => {
  it('are 16 digits with the BIN and pass the Luhn check; expiry is MMYY three years on', () => {
    const pans = new Set(Array.from({ length: 200 }, () => generatePan()));
    for (const pan of pans) {
      expect(pan).toMatch(/^\d{16}$/);
      expect(pan.startsWith(SIM_BIN)).toBe(true);
      expect(luhnValid(pan)).toBe(true);
    }
    expect(pans.size).toBeGreaterThan(195);
    expect(expiration(new Date('2026-11-23T00:00:00Z'))).toBe('1129');
    expect(expiration(new Date('2026-01-05T00:00:00Z'))).toBe('0129');
    expect(expiryDate('1129')).toBe('11/29');
    expect(maskedNumber({ first4: '5300', last4: '1234' })).toBe('5300 **** **** 1234');
    expect(utcToday({ now: () => Date.parse('2026-02-03T23:59:59Z') })).toBe('2026-02-03');
    expect(utcToday({ now: () => Date.parse('2026-02-04T00:00:00Z') })).toBe('2026-02-04');
  });
});

describe('webhook verification', () => {
  const credentials = { username: 'hook', password: 'pass-word', secret: 'a-long-webhook-secret' };
  it('needs both the Basic credentials and the signature over the exact bytes', () => {
    const body = '{"kycs":[]}';
    const headers = webhookHeaders(credentials, body);
    expect(headers['x-marqeta-signature']).toBe(webhookSignature(credentials.secret, body));
    expect(verifyWebhook(credentials, Buffer.from(body), headers)).toBe(true);
    expect(verifyWebhook(credentials, Buffer.from(`${body} `), headers)).toBe(false);
    expect(verifyWebhook({ ...credentials, password: 'other' }, Buffer.from(body), headers)).toBe(false);
    expect(verifyWebhook({ ...credentials, secret: 'other' }, Buffer.from(body), headers)).toBe(false);
    expect(verifyWebhook(credentials, Buffer.from(body), { authorization: headers.authorization })).toBe(
      false,
    );
    const upper = { ...headers, 'x-marqeta-signature': headers['x-marqeta-signature']?.toUpperCase() };
    expect(verifyWebhook(credentials, Buffer.from(body), upper)).toBe(true);
  });
});

describe('review decisions', () => {
  it('map Marqeta KYC results to holder statuses', () => {
    expect(kycDecision({ status: 'pending' })).toBeNull();
    expect(kycDecision({ status: 'success' })).toEqual({
      status: 'activation_successful',
      description: null,
    });
    expect(
      kycDecision({ status: 'failure', codes: [{ code: 'INCOMPLETE_INFORMATION', message: 'Blurred' }] }),
    ).toEqual({ status: 'incomplete_information', description: 'Blurred' });
    expect(kycDecision({ status: 'failure' })).toEqual({ status: 'rejection', description: null });
  });
});

describe('logs', () => {
  it('never carry a card number from a URL', () => {
    expect(redactCardNumbers('/api/v2/peatio/account/card_details?card_number=5300991234567890')).toBe(
      '/api/v2/peatio/account/card_details?card_number=[redacted]',
    );
    expect(redactCardNumbers('/x?a=1&card_number=5300%20****%20****%201234&b=2')).toBe(
      '/x?a=1&card_number=[redacted]&b=2',
    );
    expect(redactCardNumbers('/x/5300991234567890/y')).toBe('/x/****7890/y');
    expect(redactCardNumbers('/api/v2/peatio/market/orders?page=12')).toBe(
      '/api/v2/peatio/market/orders?page=12',
    );
  });
  it('never carry a password-reset token from a URL', () => {
    expect(redactSecrets('/password-reset/AbC_d-9?x=1')).toBe('/password-reset/[redacted]?x=1');
    expect(
      redactSecrets('/api/v2/barong/identity/sessions/verify_access_token?access_token=AbC_d-9&b=2'),
    ).toBe('/api/v2/barong/identity/sessions/verify_access_token?access_token=[redacted]&b=2');
    expect(redactSecrets('/x?card_number=5300991234567890')).toBe('/x?card_number=[redacted]');
  });
});

describe('configuration', () => {
  it('has the card defaults, takes USDT amounts and needs every Marqeta setting with CARD_ISSUER=marqeta', () => {
    const card = loadConfig({}).card;
    expect(card).toMatchObject({
      issuer: 'simulator',
      autoApproveSeconds: 0,
      simShipSeconds: 5,
      fees: { activationFee: '10', annualFee: '20', topupFee: '1', topupLimit: '5000', loadLimit: '10000' },
    });
    expect(loadConfig({ CARD_ANNUAL_FEE: '12.5' }).card.fees.annualFee).toBe('12.5');
    expect(() => loadConfig({ CARD_ANNUAL_FEE: '1.1234567' })).toThrow(/CARD_ANNUAL_FEE/);
    expect(() => loadConfig({ CARD_ISSUER: 'marqeta' })).toThrow(/MARQETA_APP_TOKEN/);
  });
});

describe('keyed mutex', () => {
  it('runs the tasks of one key one at a time, in order, and other keys alongside', async () => {
    const mutex = new KeyedMutex();
    const log: string[] = [];
    const task = (name: string, ms: number) => async () => {
      log.push(`start ${name}`);
      await new Promise((r) => setTimeout(r, ms));
      log.push(`end ${name}`);
      if (name === 'a2') throw new Error('fails');
      return name;
    };
    const results = await Promise.allSettled([
      mutex.run('a', task('a1', 20)),
      mutex.run('a', task('a2', 1)),
      mutex.run('a', task('a3', 1)),
      mutex.run('b', task('b1', 1)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(log.indexOf('end a1')).toBeLessThan(log.indexOf('start a2'));
    expect(log.indexOf('end a2')).toBeLessThan(log.indexOf('start a3'));
    expect(log.indexOf('end b1')).toBeLessThan(log.indexOf('end a1'));
  });
});
