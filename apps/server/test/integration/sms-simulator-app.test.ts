import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboxSms, type SmsPort, SmsRejected } from '../../src/adapters/sms/port.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { activeUser, barongCall, outbox, signedInUser } from '../support/identity.ts';

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

describe('a number the SMS provider refuses', () => {
  it('is refused as an invalid number when it is a phone change', async () => {
    // Texts kept in the outbox, but for one number the provider answers "unsubscribed recipient" (21610).
    const unsubscribed = '436641234577';
    let kept: SmsPort | undefined;
    const sms: SmsPort = {
      send: (message) =>
        message.to === unsubscribed
          ? Promise.reject(new SmsRejected(21610, 400, 'Attempt to send to unsubscribed recipient', true))
          : (kept as SmsPort).send(message),
    };
    const refusing = await createTestApp({ sms });
    try {
      kept = createOutboxSms(refusing.db.pool, refusing.deps.keys);
      const { session } = await signedInUser(refusing, 'sms-refused@example.com');
      const call = barongCall(() => refusing);
      const start = (phone_number: string) =>
        call('POST', '/resource/phones', session, { phone_number, country: 'AT' });
      const refused = await start(`+${unsubscribed}`);
      expect([refused.statusCode, refused.json()]).toEqual([422, { errors: ['resource.phone.invalid_num'] }]);
      expect((await start('+436641234588')).statusCode).toBe(201);
    } finally {
      await refusing.close();
    }
  });
});
