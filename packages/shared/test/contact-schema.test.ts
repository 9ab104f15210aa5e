import { describe, expect, it } from 'vitest';
import { contactSchema } from '../src/schemas/contact.ts';
import { errorCodes } from '../src/validation.ts';

const good = { email: 'a.b@example.com', subject: 'Hello', name: 'Anna Smith', message: 'Hi there' };

function codes(input: unknown): string[] {
  const result = contactSchema.safeParse(input);
  return result.success ? [] : errorCodes(result.error);
}

describe('contact schema', () => {
  it('accepts a complete message', () => {
    expect(codes(good)).toEqual([]);
  });

  it.each([
    [{ ...good, email: '' }, 'identity.inquiry.missing_email'],
    [{ ...good, email: undefined }, 'identity.inquiry.missing_email'],
    [{ ...good, email: '   ' }, 'identity.inquiry.email_whitespace'],
    [{ ...good, email: 'not-an-email' }, 'identity.inquiry.invalid_email'],
    [{ ...good, subject: '' }, 'identity.inquiry.missing_subject'],
    [{ ...good, subject: 'x'.repeat(201) }, 'identity.inquiry.subject_too_long'],
    [{ ...good, name: '' }, 'identity.inquiry.missing_name'],
    [{ ...good, name: 'Agent 007' }, 'identity.inquiry.name_has_number'],
    [{ ...good, name: 'n'.repeat(201) }, 'identity.inquiry.name_too_long'],
    [{ ...good, message: '' }, 'identity.inquiry.missing_message'],
    [{ ...good, message: 'm'.repeat(501) }, 'identity.inquiry.message_too_long'],
    [{ ...good, user_type: 'Admin' }, 'identity.inquiry.invalid_user_type'],
  ])('refuses %j with one code', (input, code) => {
    expect(codes(input)).toEqual([code]);
  });

  it('accepts the boundary lengths', () => {
    expect(
      codes({ ...good, subject: 's'.repeat(200), message: 'm'.repeat(500), name: 'n'.repeat(200) }),
    ).toEqual([]);
  });
});
