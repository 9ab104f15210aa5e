import { describe, expect, it } from 'vitest';
import { validIban } from '../../src/adapters/bank/port.ts';
import { bankSignature, bankWebhookHeaders, verifyBankWebhook } from '../../src/adapters/bank/signing.ts';
import {
  displayReference,
  newReference,
  referenceOf,
  rfReference,
  validRfReference,
} from '../../src/modules/bank-deposits/reference.ts';

describe('ISO 11649 creditor references', () => {
  it('computes and checks the check digits (the standard example RF18 5390 0754 7034)', () => {
    expect(rfReference('539007547034')).toBe('RF18539007547034');
    expect(validRfReference('RF18 5390 0754 7034')).toBe(true);
    expect(validRfReference('rf18539007547034')).toBe(true);
    expect(validRfReference('RF18539007547035')).toBe(false);
    expect(validRfReference('RF19539007547034')).toBe(false);
    expect(validRfReference('RF18')).toBe(false);
    expect(validRfReference(`RF18${'1'.repeat(22)}`)).toBe(false);
  });

  it('makes valid, distinct references of 16 characters, grouped by four for people', () => {
    const made = new Set(Array.from({ length: 200 }, () => newReference()));
    expect(made.size).toBe(200);
    for (const ref of made) {
      expect(ref).toMatch(/^RF\d{2}EX[A-Z0-9]{10}$/);
      expect(validRfReference(ref)).toBe(true);
    }
    expect(displayReference('RF18539007547034')).toBe('RF18 5390 0754 7034');
  });

  it('finds the reference: the structured one first, else ours in the free text, spaces and case ignored', () => {
    const ref = newReference();
    const other = newReference();
    expect(referenceOf(ref, `pay ${other}`)).toEqual({ reference: ref });
    expect(referenceOf(null, `Invoice 12 ${displayReference(ref).toLowerCase()} thanks`)).toEqual({
      reference: ref,
    });
    expect(referenceOf('  ', `x${ref}`)).toEqual({ reference: ref });
    expect(referenceOf(null, null)).toBeNull();
    expect(referenceOf(null, 'for our account')).toBeNull();
    // A typo in the structured reference, or ours mistyped in the text: invalid, never someone else's.
    const typo = `${ref.slice(0, -1)}${ref.endsWith('2') ? '3' : '2'}`;
    expect(referenceOf(typo, null)).toBe('invalid');
    expect(referenceOf(null, `ref ${typo}`)).toBe('invalid');
    expect(referenceOf('INV-2026-7', null)).toBe('invalid');
  });
});

describe('the bank notification signature', () => {
  const body = '{"entries":[]}';
  it('accepts exactly the body signed, with a fresh timestamp', () => {
    const now = 1_800_000_000_000;
    const headers = bankWebhookHeaders('secret', body, now);
    expect(headers['x-bank-signature']).toBe(bankSignature('secret', now / 1000, body));
    expect(verifyBankWebhook('secret', Buffer.from(body), headers, now + 60_000)).toBe(true);
    expect(verifyBankWebhook('secret', Buffer.from(`${body} `), headers, now)).toBe(false);
    expect(verifyBankWebhook('other', Buffer.from(body), headers, now)).toBe(false);
    expect(verifyBankWebhook('secret', Buffer.from(body), headers, now + 301_000)).toBe(false);
    expect(verifyBankWebhook('secret', Buffer.from(body), {}, now)).toBe(false);
  });

  it('checks IBANs (the collection default and a French one)', () => {
    expect(validIban('DE89370400440532013000')).toBe(true);
    expect(validIban('FR1420041010050500013M02606')).toBe(true);
    expect(validIban('DE89370400440532013001')).toBe(false);
  });
});
