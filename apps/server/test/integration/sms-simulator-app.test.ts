import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { activeUser, outbox } from '../support/identity.ts';

// SMS_PROVIDER=simulator: the app's phone codes go through the Twilio adapter to the SMS simulator mounted in the
// same app (by inject here: a test app does not listen), and the dev outbox reads each code once from the
// simulator's phone inbox. The product keeps the text's template and Twilio's message SID, never the code.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { SMS_PROVIDER: 'simulator' });
});
afterAll(() => t.close());

describe('texts through the SMS simulator', () => {
  it('registers with the phone code read from the dev outbox, which shows it once', async () => {
    const { phone } = await activeUser(t, 'sms-sim@example.com');
    const kept = await t.db.pool.query(
      'select template, body, secret_enc, provider_ref, sent_at from mail_outbox where recipient = $1',
      [phone],
    );
    expect(kept.rows).toHaveLength(1);
    const [row] = kept.rows;
    expect(row).toMatchObject({ template: 'code.register', secret_enc: null });
    expect(row.provider_ref).toMatch(/^SM[0-9a-f]{32}$/);
    expect(row.body).toContain('{{secret}}');
    expect(row.sent_at).toBeInstanceOf(Date);
    // The simulator delivered the text to +<phone> and no longer holds it (the outbox read took it).
    const delivered = await t.db.pool.query('select to_number, body_sealed, shown_at from smssim_messages');
    expect(delivered.rows).toEqual([
      expect.objectContaining({ to_number: `+${phone}`, body_sealed: null, shown_at: expect.any(Date) }),
    ]);
    const [again] = await outbox(t, phone);
    expect(again).toMatchObject({ channel: 'sms', secret: null });
    expect(again?.body).toContain('[redacted]');
  });
});
