import {
  activityResponse,
  antiPhishingResponse,
  CODE_LENGTH,
  changePasswordSchema,
  compatProfileSchema,
  ERRORS,
  labelResponse,
  messageResponse,
  otpCodeSchema,
  otpQrResponse,
  phoneResponse,
  profileSchema,
  profileWithTimesResponse,
  resendPhoneCodeSchema,
  savedProfileResponse,
  startPhoneChangeSchema,
  userEntityResponse,
  verifyOtpCodeSchema,
  verifyPhoneSchema,
} from '@exchange/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { authUser, requireAuth } from '../../http/auth.ts';
import { notFound } from '../../http/errors.ts';
import { docs } from '../../http/openapi.ts';
import { paged } from '../../http/paging.ts';
import { writesSessionOnly } from '../../http/session-only.ts';
import { listActivities } from './activities-repository.ts';
import { issueCode } from './codes.ts';
import { promoteWhenComplete } from './compat.ts';
import type { IdentityRouteDeps } from './deps.ts';
import { mailCode } from './notify.ts';
import { disableOtp, enableOtp, generateOtpQr, verifyOtp } from './otp.ts';
import { changePassword } from './password.ts';
import {
  confirmPhoneChange,
  resendPhoneChangeCode,
  startPhoneChange,
  verifyPhoneChangeOtp,
} from './phone.ts';
import { saveProfile } from './profile.ts';
import {
  recordActivity,
  setAntiPhishingPhrase,
  setUserData,
  userEntity,
  userEntityExtras,
  userLabels,
} from './users-repository.ts';

/** A phrase the user recognises, shown in every email (empty removes it); letters, digits and spaces. */
const antiPhishingSchema = z.object({
  phrase: z
    .string({ error: ERRORS.invalidParams })
    .max(40, ERRORS.invalidParams)
    .regex(/^[\p{L}\p{N} ]*$/u, ERRORS.invalidParams),
});
const activityQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(10),
});
const activityParams = z.object({ topic: z.string().max(32) });
/** `PUT /resource/users/me`: `data` is a JSON text of at most 1 KiB (BaseApp sends `{"language":"en"}`). */
const userDataSchema = z.object({
  data: z
    .string({ error: ERRORS.userDataInvalid })
    .max(1024, ERRORS.userDataInvalid)
    .refine(isJsonText, ERRORS.userDataInvalid),
});
const origin = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'] ?? null,
});
const limit = (max: number) => ({ config: { rateLimit: { max, timeWindow: '1 minute' } } });

/** True for text that parses as JSON. */
function isJsonText(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Barong `resource/*`: the signed-in user's own data and security settings. Session, or an API key for reads
 * (the KYC routes and API keys, registered in the same scope, follow the same rule).
 */
export async function userResourceRoutes(app: FastifyInstance, deps: IdentityRouteDeps): Promise<void> {
  app.addHook('onRequest', requireAuth(deps.users, deps.sessions, deps.apiKeys));
  // Programs may read here with an API key; every change (security settings, profile and user data, API keys,
  // identity documents, codes sent) needs the browser session, and its second factor where the route asks.
  writesSessionOnly(app);
  const compat = deps.config.baseAppCompat;

  app.get(
    '/resource/users/me',
    docs('The signed-in user (Barong user entity)', { response: userEntityResponse }),
    async (request, reply) =>
      reply.type('application/json; charset=utf-8').send(await deps.users.entityJson(authUser(request))),
  );

  /** Barong `PUT /resource/users/me`: replaces the user's free-form `data` (a JSON text); answers the user. */
  app.put(
    '/resource/users/me',
    docs(
      "Replace the user's free-form data (a JSON text)",
      { body: userDataSchema, response: userEntityResponse },
      limit(10),
    ),
    async (request) => {
      const { data } = userDataSchema.parse(request.body ?? {});
      const user = authUser(request);
      const updated = await setUserData(deps.db, user.id, data);
      deps.apiKeys.forgetUser(user.id);
      return userEntity(deps.db, updated);
    },
  );

  // Barong's reads of the phones and profiles (also inside the user entity).
  app.get(
    '/resource/phones',
    docs("The user's phones", { response: z.array(phoneResponse) }),
    async (request) => (await userEntityExtras(deps.db, authUser(request).id)).phones,
  );
  app.get(
    '/resource/profiles/me',
    docs("The user's profiles, oldest first", { response: z.array(profileWithTimesResponse) }),
    async (request) => (await userEntityExtras(deps.db, authUser(request).id)).profiles,
  );
  app.get(
    '/resource/labels',
    docs("The user's labels", { response: z.array(labelResponse) }),
    async (request) => userLabels(deps.db, authUser(request).id),
  );
  app.get(
    '/resource/labels/:key',
    docs("One of the user's labels, by key", { response: labelResponse }),
    async (request) => {
      const { key } = request.params as { key: string };
      const label = (await userLabels(deps.db, authUser(request).id)).find((l) => l.key === key);
      if (!label) throw notFound();
      return label;
    },
  );

  app.get(
    '/resource/users/activity/:topic',
    docs(
      "The user's security log (`all` or one topic: session, password, phone, otp, api_keys, beneficiary, withdraw, account, card, data_export), paged",
      {
        response: z.array(activityResponse),
        paged: true,
        query: activityQuery,
        params: activityParams,
      },
    ),
    async (request, reply) => {
      const { page, limit: count } = activityQuery.parse(request.query);
      const { topic } = activityParams.parse(request.params);
      const { items, total } = await listActivities(deps.db, authUser(request).id, topic, page, count);
      paged(reply, total, page, count);
      return items;
    },
  );

  /**
   * Emails the signed-in user a 6-digit one-time code for a sensitive action (`sensitive_action`, stored only
   * as its keyed hash like every other code; 10 minutes, 5 tries). One per minute per account, 5 per minute
   * per address.
   */
  app.post(
    '/resource/generate_code',
    docs('Email a 6-digit code for a sensitive action', { response: messageResponse, status: 201 }, limit(5)),
    async (request, reply) => {
      const user = authUser(request);
      const code = await issueCode(deps, {
        purpose: 'sensitive_action',
        channel: 'email',
        destination: user.email,
        userId: user.id,
        length: CODE_LENGTH.verification,
      });
      await mailCode(deps, user.email, 'sensitive_action', code, user.anti_phishing_phrase);
      return reply.status(201).send({ message: 'identity.otp.sent' });
    },
  );

  app.put(
    '/resource/users/password',
    docs(
      'Change the password',
      { body: changePasswordSchema, response: messageResponse, status: 201, errors: [400] },
      limit(5),
    ),
    async (request, reply) => {
      const input = changePasswordSchema.parse(request.body ?? {});
      await changePassword(deps, authUser(request), input, origin(request));
      return reply.status(201).send({ message: 'password.changed' });
    },
  );

  app.post(
    '/resource/otp/generate_qrcode',
    docs(
      'Start two-factor: a secret and its QR code',
      { response: otpQrResponse, status: 201, errors: [400] },
      limit(10),
    ),
    async (request, reply) => {
      return reply.status(201).send(await generateOtpQr(deps, authUser(request)));
    },
  );
  app.post(
    '/resource/otp/enable',
    docs(
      'Enable two-factor with a code',
      { body: otpCodeSchema, response: messageResponse, status: 201 },
      limit(10),
    ),
    async (request, reply) => {
      await enableOtp(deps, authUser(request), otpCodeSchema.parse(request.body ?? {}).code, origin(request));
      deps.apiKeys.forgetUser(authUser(request).id);
      return reply.status(201).send({ message: 'otp.enabled' });
    },
  );
  app.post(
    '/resource/otp/disable',
    docs(
      'Disable two-factor with a code',
      { body: otpCodeSchema, response: messageResponse, status: 201 },
      limit(10),
    ),
    async (request, reply) => {
      await disableOtp(
        deps,
        authUser(request),
        otpCodeSchema.parse(request.body ?? {}).code,
        origin(request),
      );
      // API keys need 2FA: refuse them from the next request on.
      deps.apiKeys.forgetUser(authUser(request).id);
      return reply.status(201).send({ message: 'otp.disabled' });
    },
  );

  app.post(
    '/resource/otp/verify',
    docs(
      'Check a two-factor code (Barong); changes nothing',
      { body: otpCodeSchema, response: messageResponse, status: 201 },
      limit(10),
    ),
    async (request, reply) => {
      await verifyOtp(deps, authUser(request), otpCodeSchema.parse(request.body ?? {}).code);
      return reply.status(201).send({ message: 'otp.verified' });
    },
  );

  app.post(
    '/resource/phones/verify_otp_code',
    docs(
      'Phone change: confirm the authenticator code',
      { body: verifyOtpCodeSchema, response: messageResponse, status: 201 },
      limit(10),
    ),
    async (request, reply) => {
      const { otp_code } = verifyOtpCodeSchema.parse(request.body ?? {});
      await verifyPhoneChangeOtp(deps, authUser(request), request.auth?.sessionId, otp_code);
      return reply.status(201).send({ message: 'otp.verified' });
    },
  );
  app.post(
    '/resource/phones',
    docs(
      'Phone change: send a code to the new number',
      { body: startPhoneChangeSchema, response: messageResponse, status: 201 },
      limit(10),
    ),
    async (request, reply) => {
      await startPhoneChange(
        deps,
        authUser(request),
        request.auth?.sessionId,
        startPhoneChangeSchema.parse(request.body ?? {}),
      );
      return reply.status(201).send({ message: 'phone.code_sent' });
    },
  );
  app.post(
    '/resource/phones/send_code',
    docs(
      'Phone change: send the code again',
      { body: resendPhoneCodeSchema, response: messageResponse, status: 201 },
      limit(10),
    ),
    async (request, reply) => {
      await resendPhoneChangeCode(
        deps,
        authUser(request),
        resendPhoneCodeSchema.parse(request.body ?? {}).phone_number,
      );
      return reply.status(201).send({ message: 'phone.code_sent' });
    },
  );
  app.post(
    '/resource/phones/verify',
    docs(
      'Phone change: verify the new number',
      { body: verifyPhoneSchema, response: messageResponse, status: 201 },
      limit(10),
    ),
    async (request, reply) => {
      const input = verifyPhoneSchema.parse(request.body ?? {});
      await confirmPhoneChange(deps, authUser(request), input, origin(request));
      if (compat) await promoteWhenComplete(deps, authUser(request).id);
      return reply.status(201).send({ message: 'phone.changed' });
    },
  );

  app.put(
    '/resource/users/anti_phishing',
    docs(
      'Set or clear the anti-phishing phrase',
      { body: antiPhishingSchema, response: antiPhishingResponse },
      limit(10),
    ),
    async (request) => {
      const { phrase } = antiPhishingSchema.parse(request.body ?? {});
      const user = authUser(request);
      await setAntiPhishingPhrase(deps.db, user.id, phrase || null);
      deps.apiKeys.forgetUser(user.id);
      await recordActivity(deps.db, {
        userId: user.id,
        action: 'anti_phishing.set',
        result: 'succeed',
        topic: 'account',
        ...origin(request),
      });
      return { anti_phishing: Boolean(phrase) };
    },
  );

  const profileBody = compat ? compatProfileSchema : profileSchema;
  const profile = async (request: FastifyRequest) => {
    const user = authUser(request);
    const saved = await saveProfile(deps, user, profileBody.parse(request.body ?? {}));
    if (compat) await promoteWhenComplete(deps, user.id);
    return saved;
  };
  app.post(
    '/resource/profiles',
    docs('Save the profile', { body: profileBody, response: savedProfileResponse, status: 201 }),
    async (request, reply) => reply.status(201).send(await profile(request)),
  );
  app.put(
    '/resource/profiles',
    docs('Save the profile', { body: profileBody, response: savedProfileResponse }),
    async (request) => profile(request),
  );
}
