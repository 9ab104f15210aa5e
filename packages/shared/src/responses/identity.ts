import { z } from 'zod';
import { isoDate, isoTime } from './common.ts';

/** Barong's answers: the user entity and its parts, sessions, two-factor, API keys, the public configuration. */

/** A label of a user (`email: verified`, `basic-kyc-level: ...`). */
export const labelResponse = z
  .object({ key: z.string(), value: z.string(), scope: z.string(), created_at: isoTime, updated_at: isoTime })
  .meta({ id: 'Label' });

/** A phone of a user. */
export const phoneResponse = z
  .object({ country: z.string(), number: z.string(), validated_at: isoTime.nullable() })
  .meta({ id: 'Phone' });

/** A profile of a user (names, date of birth, address); fields not given yet are null. */
export const profileEntityResponse = z
  .object({
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    gender: z.string().nullable(),
    dob: isoDate.nullable(),
    address: z.string().nullable(),
    postcode: z.string().nullable(),
    city: z.string().nullable(),
    country: z.string().nullable(),
    state: z.string(),
  })
  .meta({ id: 'Profile' });

/** A profile as `POST`/`PUT /resource/profiles` answers it (the same fields, with its times in the user entity). */
export const savedProfileResponse = profileEntityResponse;

/** A profile with its times, as the user entity and `GET /resource/profiles/me` list them. */
export const profileWithTimesResponse = profileEntityResponse
  .extend({ created_at: isoTime, updated_at: isoTime })
  .meta({ id: 'ProfileWithTimes' });

/** Barong's user entity (`UserWithFullInfo`): the public `id` is the uid; never the database id. */
export const userEntityResponse = z
  .object({
    id: z.string(),
    email: z.string(),
    uid: z.string(),
    role: z.string(),
    level: z.number().int(),
    otp: z.boolean(),
    state: z.string(),
    /** Personal or business (issue 31); Barong has no such field, and its clients ignore it. */
    account_type: z.enum(['personal', 'business']),
    anti_phishing: z.boolean(),
    data: z.string().nullable(),
    labels: z.array(labelResponse),
    phones: z.array(phoneResponse),
    profiles: z.array(profileWithTimesResponse),
    created_at: isoTime,
    updated_at: isoTime,
  })
  .meta({
    id: 'User',
    examples: [
      {
        id: 'ID1A2B3C4D5E',
        email: 'alice@example.com',
        uid: 'ID1A2B3C4D5E',
        role: 'member',
        level: 3,
        otp: true,
        state: 'active',
        account_type: 'personal',
        anti_phishing: false,
        data: '{"language":"en"}',
        labels: [
          {
            key: 'email',
            value: 'verified',
            scope: 'private',
            created_at: '2026-05-01T09:30:00.123Z',
            updated_at: '2026-05-01T09:30:00.123Z',
          },
        ],
        phones: [{ country: 'IN', number: '919876543210', validated_at: '2026-05-01T09:31:00.000Z' }],
        profiles: [],
        created_at: '2026-05-01T09:30:00.123Z',
        updated_at: '2026-05-01T09:30:00.123Z',
      },
    ],
  });

/** A login that opened a session: the user entity and the session's CSRF token. */
export const sessionUserResponse = userEntityResponse
  .extend({ csrf_token: z.string() })
  .meta({ id: 'SessionUser' });

/** A login of an account that is not verified yet: no session; the codes are sent again. */
export const pendingLoginResponse = z
  .object({
    email: z.string(),
    phones: z.array(z.object({ number: z.string() })),
    level: z.number().int(),
    state: z.string(),
    registration_token: z.string(),
  })
  .meta({ id: 'PendingLogin' });

/** `POST /identity/sessions`: a session, or a pending account to verify. */
export const loginResponse = z.union([sessionUserResponse, pendingLoginResponse]);

/** The spec's registration: the email and phone the codes went to, and the token to change the number. */
export const registrationResponse = z
  .object({ email: z.string(), phone_number: z.string(), registration_token: z.string() })
  .meta({ id: 'Registration' });

/** `POST /identity/users`: the spec's registration, or (BASEAPP_COMPAT) Barong's user entity. */
export const registerResponse = z.union([registrationResponse, userEntityResponse]);

/** `POST /identity/users/verify_account`. */
export const verifiedAccountResponse = z.object({
  email: z.string(),
  level: z.number().int(),
  state: z.string(),
});

/** `POST /identity/users/email/confirm_code` with the spec's code (level 1), or (BASEAPP_COMPAT) a token. */
export const confirmEmailResponse = z.union([
  z.object({ email: z.string(), level: z.number().int() }),
  userEntityResponse,
]);

/** `POST /identity/users/edit/phone_number`: where the new codes went. */
export const pendingPhoneResponse = z.object({ email: z.string(), phone_number: z.string() });

/** `POST /identity`: the state of the account behind a login. */
export const identityStateResponse = z.object({ state: z.string(), level: z.number().int() });

/** `GET /identity/sessions/verify_access_token`. */
export const accessTokenValidResponse = z.object({ valid: z.literal(true) });

/** `POST /identity/password/validate`: NIST SP 800-63's entropy estimate, in bits. */
export const passwordEntropyResponse = z.object({ entropy: z.number() });

/** Barong's liveness answer. */
export const pingResponse = z.object({ ping: z.literal('pong') });

/** Barong's time (Unix seconds). */
export const barongTimeResponse = z.object({ time: z.number().int() });

/** The running version (Peatio and Barong). */
export const versionResponse = z
  .object({ git_tag: z.string(), git_sha: z.string(), build_date: isoTime, version: z.string() })
  .meta({
    id: 'Version',
    examples: [
      { git_tag: '0.1.0', git_sha: 'abc1234', build_date: '2026-05-01T09:30:00.123Z', version: '0.1.0' },
    ],
  });

/** `GET /identity/configs`: what a client needs before login. */
export const identityConfigsResponse = z.object({
  captcha_type: z.enum(['none', 'altcha', 'recaptcha']),
  captcha_id: z.string().optional(),
  session_expire_time: z.number().int(),
  password_min_length: z.number().int(),
  password_min_entropy: z.number(),
});

/** `GET /identity/captcha/challenge`: an ALTCHA challenge (proof of work): its parameters, signed. */
export const captchaChallengeResponse = z.object({
  parameters: z.looseObject({ algorithm: z.string(), salt: z.string(), nonce: z.string() }),
  signature: z.string(),
});

/** `GET /identity/encryption_key`: the public key that seals request bodies. */
export const encryptionKeyResponse = z.object({ public_key: z.string(), algorithm: z.string() });

/** `GET /identity/jwks`: the public key of the session JWTs. */
export const jwksResponse = z.object({
  keys: z.array(
    z.looseObject({
      kty: z.literal('RSA'),
      n: z.string(),
      e: z.string(),
      kid: z.string(),
      alg: z.literal('RS256'),
    }),
  ),
});

/** An entry of the security log (`GET /resource/users/activity/{topic}`). */
export const activityResponse = z
  .object({
    id: z.number().int(),
    ip: z.string().nullable(),
    user_ip: z.string().nullable(),
    user_agent: z.string().nullable(),
    topic: z.string().nullable(),
    action: z.string(),
    result: z.string(),
    data: z.string().nullable(),
    created_at: isoTime,
  })
  .meta({ id: 'Activity' });

/** `POST /resource/otp/generate_qrcode`: the bare base64 PNG of the QR code and its otpauth URL. */
export const otpQrResponse = z.object({ data: z.object({ barcode: z.string(), url: z.string() }) });

/** `PUT /resource/users/anti_phishing`. */
export const antiPhishingResponse = z.object({ anti_phishing: z.boolean() });

/** An API key as listed: never its secret. */
export const apiKeyResponse = z
  .object({
    kid: z.string(),
    algorithm: z.string(),
    state: z.enum(['active', 'inactive']),
    /** The addresses and CIDR ranges the key may be used from (canonical form); empty: any address. */
    allowed_ips: z.array(z.string()),
    created_at: isoTime,
    updated_at: isoTime,
  })
  .meta({ id: 'ApiKey' });

/** A new API key: its secret, this once (also as Barong's `accessKey` and `secretKey`). */
export const createdApiKeyResponse = apiKeyResponse
  .extend({ secret: z.string(), accessKey: z.string(), secretKey: z.string() })
  .meta({ id: 'CreatedApiKey' });

/** `GET /resource/sumsub/token`: what the web app needs to show the provider's widget. */
export const kycTokenResponse = z.object({
  token: z.string(),
  userId: z.string(),
  applicant_id: z.string(),
  level_name: z.string(),
  /** `simulator`: show `widget_url` in a frame; `sumsub`: load `sdk_url` (the Sumsub WebSDK). */
  provider: z.enum(['simulator', 'sumsub']),
  widget_url: z.string().optional(),
  sdk_url: z.string().optional(),
});
export type KycTokenResponse = z.infer<typeof kycTokenResponse>;

/** `GET /resource/kyc/review`: where the user's check stands, and the reviewer's words on a rejection or retry. */
export const kycReviewResponse = z.object({
  /** The `basic-kyc-level` label's value (`pending` when there is none). */
  kyc_status: z.string(),
  /** What the reviewer told the user when asking for a retry or rejecting, or null. */
  comment: z.string().nullable(),
});
export type KycReviewResponse = z.infer<typeof kycReviewResponse>;

/** An uploaded identity document (never its content). */
export const kycDocumentResponse = z
  .object({
    id: z.number().int(),
    doc_type: z.string(),
    doc_number: z.string().nullable(),
    doc_expire: isoDate.nullable(),
    upload: z.object({ file_name: z.string(), content_type: z.string(), size: z.number().int() }),
    created_at: isoTime,
  })
  .meta({ id: 'KycDocument' });

/** `POST /resource/profiles/net_verify/initiate`. */
export const netVerifyStartResponse = z.object({ scan_ref: z.string(), redirectUrl: z.string() });

/** `/resource/profiles/net_verify/success` and `/kyc`: a scan and the check behind it. */
export const netVerifyStateResponse = z.object({
  scan_ref: z.string(),
  state: z.string(),
  kyc_status: z.string(),
  review_status: z.string(),
  review_answer: z.string().nullable(),
});

/** The KYC provider's webhook answer: what became of the event. */
export const kycWebhookResultResponse = z.object({ status: z.string() });

/** `/api/v2/barong/auth/*`: Barong's session JWT (also sent in the `Authorization` header) and its expiry. */
export const authJwtResponse = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/),
  /** Unix seconds. */
  expires_at: z.number().int(),
});

/**
 * A message of the development outbox (`GET /dev/outbox`, DEV_TOOLS only): what was sent to whom, with the
 * one-time secret filled in (in `body` and `secret`) only in the answer that first shows it.
 */
export const outboxMessageResponse = z.object({
  id: z.string(),
  channel: z.enum(['email', 'sms']),
  to: z.string(),
  /** Which message it is (e.g. `code.login`, `password_reset`). */
  template: z.string(),
  subject: z.string(),
  body: z.string(),
  /** The message's secret, on the one read that takes it; null before (none) and after. */
  secret: z.string().nullable(),
  created_at: isoTime,
});
export type OutboxMessage = z.infer<typeof outboxMessageResponse>;
