import { describe, expect, it } from 'vitest';
import { formParams, twilioSignature, verifyTwilioSignature } from '../../src/adapters/sms/signing.ts';

// The worked example of Twilio's "Webhooks security" guide: auth token 12345, this URL and these parameters are
// signed 0/KCTR6DLpKmkAf8muzZqo1nDgQ= (a value computed by Twilio, not by this code).
const TOKEN = '12345';
const URL = 'https://mycompany.com/myapp.php?foo=1&bar=2';
const BODY =
  'To=%2B18005551212&CallSid=CA1234567890ABCDE&Digits=1234&From=%2B12349013030&Caller=%2B12349013030';
const SIGNED = '0/KCTR6DLpKmkAf8muzZqo1nDgQ=';

describe("Twilio's request signature", () => {
  it("matches Twilio's published example, whatever the parameters' order in the body", () => {
    expect(twilioSignature(TOKEN, URL, formParams(BODY))).toBe(SIGNED);
    expect(verifyTwilioSignature(TOKEN, URL, formParams(BODY), SIGNED)).toBe(true);
  });

  it('fails for another value, URL or token, a cut signature, and none', () => {
    const params = formParams(BODY);
    expect(verifyTwilioSignature(TOKEN, URL, formParams(BODY.replace('1234&', '9999&')), SIGNED)).toBe(false);
    expect(verifyTwilioSignature(TOKEN, URL.replace('bar=2', 'bar=3'), params, SIGNED)).toBe(false);
    expect(verifyTwilioSignature('54321', URL, params, SIGNED)).toBe(false);
    expect(verifyTwilioSignature(TOKEN, URL, params, SIGNED.slice(0, -1))).toBe(false);
    expect(verifyTwilioSignature(TOKEN, URL, params, undefined)).toBe(false);
    expect(verifyTwilioSignature(TOKEN, URL, params, [SIGNED, SIGNED])).toBe(false);
  });
});
