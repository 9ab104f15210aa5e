import { describe, expect, it } from 'vitest';
import { fillSecret, REDACTED, SECRET, SECRET_SLOT, withSecret } from '../../src/adapters/mail/port.ts';

describe('messages with a secret (issue 25, item 3)', () => {
  it('puts the slot where SECRET stands, and nowhere a value could put it', () => {
    const name = `Cold ${SECRET_SLOT} wallet`;
    const text = withSecret`Use ${SECRET} for "${name}" (${42}).`;
    expect(text).toBe('Use {{secret}} for "Cold { {secret}} wallet" (42).');
    expect(fillSecret(text, '123456')).toBe('Use 123456 for "Cold { {secret}} wallet" (42).');
  });

  it('fills a kept copy without its secret as redacted', () => {
    expect(fillSecret(withSecret`Code ${SECRET}, again ${SECRET}`, null)).toBe(
      `Code ${REDACTED}, again ${REDACTED}`,
    );
    expect(fillSecret('No secret here', undefined)).toBe('No secret here');
  });
});
