import {
  accessTokenValidResponse,
  changePendingPhoneSchema,
  compatRegisterSchema,
  confirmEmailCodeSchema,
  confirmEmailResponse,
  confirmEmailTokenSchema,
  ERRORS,
  forgotPasswordSchema,
  identityStateResponse,
  loginResponse,
  loginSchema,
  messageResponse,
  passwordEntropyResponse,
  pendingPhoneResponse,
  registerResponse,
  registerSchema,
  registrationResponse,
  resendLoginCodeSchema,
  resetPasswordSchema,
  sendVerificationCodeSchema,
  verifiedAccountResponse,
  verifyAccountSchema,
} from '@exchange/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireAuth } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { docs } from '../../http/openapi.ts';
import { jsonBodyOnly, refuseForeignPages } from '../../http/same-origin.ts';
import { confirmByToken, registerByEmail, resendConfirmationLink } from './compat.ts';
import type { IdentityRouteDeps } from './deps.ts';
import { passwordEntropy } from './entropy.ts';
import { identityState, login, sendLoginCode } from './login.ts';
import { confirmPasswordReset, requestPasswordReset, resetTokenValid } from './password.ts';
import { changePendingPhone } from './pending-phone.ts';
import { confirmEmail, register, resendVerificationCode, verifyAccount } from './registration.ts';
import { SESSION_COOKIE } from './sessions.ts';
import { recordActivity } from './users-repository.ts';

/** The fields of the spec's registration: a body with none of them is BaseApp's (BASEAPP_COMPAT). */
const SPEC_REGISTRATION_FIELDS = ['first_name', 'last_name', 'country', 'country_code', 'phone_number'];
const isObject = (body: unknown): body is Record<string, unknown> =>
  typeof body === 'object' && body !== null && !Array.isArray(body);
const accessTokenQuery = z.object({
  access_token: z.string({ error: ERRORS.invalidResetToken }).min(10, ERRORS.invalidResetToken).max(200),
});
/** `POST /identity/password/validate`: the password to score (not stored, not logged). */
const passwordToScore = z.object({ password: z.string({ error: ERRORS.passwordRequired }).max(128) });
const origin = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'] ?? null,
});
const limit = (max: number) => ({ config: { rateLimit: { max, timeWindow: '1 minute' } } });

/**
 * Barong `identity/*` routes: registration, verification, login and logout. Every route that acts on an account
 * without a session refuses pages of other sites (`open`); login, which sets the session cookie, takes JSON only.
 */
export async function identityRoutes(app: FastifyInstance, deps: IdentityRouteDeps): Promise<void> {
  const foreignPages = refuseForeignPages(deps.config.publicUrl);
  const open = (max: number) => ({ ...limit(max), onRequest: foreignPages });
  const compat = deps.config.baseAppCompat;
  app.post(
    '/identity/users',
    docs(
      compat
        ? "Register an account: the spec's form, or BaseApp's email and password (BASEAPP_COMPAT)"
        : 'Register an account',
      {
        body: compat ? z.union([registerSchema, compatRegisterSchema]) : registerSchema,
        response: compat ? registerResponse : registrationResponse,
        status: 201,
      },
      open(10),
    ),
    async (request, reply) => {
      const body = request.body ?? {};
      if (compat && isObject(body) && !SPEC_REGISTRATION_FIELDS.some((f) => f in body)) {
        const input = compatRegisterSchema.parse(body);
        await deps.captcha.verify(input.captcha_response, request.ip);
        const user = await registerByEmail(deps, input, origin(request), deps.config.publicUrl);
        return reply.status(201).send(user);
      }
      const input = registerSchema.parse(body);
      await deps.captcha.verify(input.captcha_response, request.ip);
      return reply.status(201).send(await register(deps, input, origin(request)));
    },
  );

  app.post(
    '/identity/users/verify_account',
    docs(
      'Verify a new account with the email and phone codes',
      { body: verifyAccountSchema, response: verifiedAccountResponse },
      open(20),
    ),
    async (request) => {
      return verifyAccount(deps, verifyAccountSchema.parse(request.body ?? {}), origin(request));
    },
  );

  for (const channel of ['email', 'phone'] as const) {
    app.post(
      `/identity/users/send_otp/${channel}`,
      docs(
        'Send a registration code again (email or phone)',
        { body: sendVerificationCodeSchema, response: messageResponse, status: 201, errors: [429] },
        open(10),
      ),
      async (request, reply) => {
        const input = sendVerificationCodeSchema.parse(request.body ?? {});
        await resendVerificationCode(deps, input.email, channel);
        return reply.status(201).send({ message: 'identity.otp.sent' });
      },
    );
  }

  // Barong's GET with a query; a POST with the registration token here (the token is the proof, and a GET
  // must change nothing).
  app.post(
    '/identity/users/edit/phone_number',
    docs(
      'Change the phone number of a pending registration (registration token)',
      { body: changePendingPhoneSchema, response: pendingPhoneResponse },
      open(5),
    ),
    async (request) => {
      const input = changePendingPhoneSchema.parse(request.body ?? {});
      await deps.captcha.verify(input.captcha_response, request.ip);
      return changePendingPhone(deps, input);
    },
  );

  app.post(
    '/identity/users/email/generate_code',
    docs(
      compat
        ? 'Send the email verification code again (the confirmation link for BaseApp sign-ups)'
        : 'Send the email verification code again',
      { body: sendVerificationCodeSchema, response: messageResponse, status: 201 },
      open(10),
    ),
    async (request, reply) => {
      const { email } = sendVerificationCodeSchema.parse(request.body ?? {});
      if (compat) await resendConfirmationLink(deps, email, deps.config.publicUrl);
      await resendVerificationCode(deps, email, 'email');
      return reply.status(201).send({ message: 'identity.otp.sent' });
    },
  );

  app.post(
    '/identity/users/email/confirm_code',
    docs(
      compat
        ? "Confirm an email: the emailed code, or the mailed link's token (BASEAPP_COMPAT)"
        : 'Confirm the email of a pending registration',
      {
        body: compat ? z.union([confirmEmailCodeSchema, confirmEmailTokenSchema]) : confirmEmailCodeSchema,
        response: confirmEmailResponse,
        status: 201,
      },
      open(20),
    ),
    async (request, reply) => {
      const body = request.body ?? {};
      if (compat && isObject(body) && 'token' in body) {
        const { token } = confirmEmailTokenSchema.parse(body);
        return reply.status(201).send(await confirmByToken(deps, token, origin(request)));
      }
      const input = confirmEmailCodeSchema.parse(body);
      return reply.status(201).send(await confirmEmail(deps, input.email, input.code, origin(request)));
    },
  );

  app.get(
    '/identity/sessions/verify_access_token',
    docs(
      'Check a password reset token',
      { query: accessTokenQuery, response: accessTokenValidResponse },
      limit(20),
    ),
    async (request, reply) => {
      const { access_token } = accessTokenQuery.parse(request.query);
      if (!(await resetTokenValid(deps, access_token)))
        return reply.status(422).send({ errors: [ERRORS.invalidResetToken] });
      return { valid: true };
    },
  );

  app.post(
    '/identity/sessions',
    docs(
      'Log in: password, then the second step (otp_code or code); JSON only',
      {
        body: loginSchema,
        bodyType: 'json',
        response: loginResponse,
        errors: [401, 403],
        description:
          "Without its second step the login answers 401 `identity.session.missing_otp` with `otp`, `second_step`, `code_length`, `send_code` and `code_sent` next to `errors`. With both factors right, from an address the account's login IP whitelist does not hold: 403 `identity.session.ip_not_allowed`.",
      },
      { ...limit(30), onRequest: [foreignPages, jsonBodyOnly] },
    ),
    async (request, reply) => {
      const input = loginSchema.parse(request.body ?? {});
      await deps.captcha.verify(input.captcha_response, request.ip);
      const result = await login(deps, input, origin(request));
      if (result.kind === 'pending') return result.body;
      setSessionCookie(request, reply, result.token, deps.config.publicUrl);
      return result.body;
    },
  );

  // The identity step of login: the account's state, only to whoever knows its password (no enumeration).
  app.post(
    '/identity',
    docs(
      'The account state behind a login (password checked first)',
      { body: resendLoginCodeSchema, response: identityStateResponse, status: 201, errors: [401] },
      open(10),
    ),
    async (request, reply) => {
      const input = resendLoginCodeSchema.parse(request.body ?? {});
      await deps.captcha.verify(input.captcha_response, request.ip);
      return reply.status(201).send(await identityState(deps, input, origin(request)));
    },
  );

  app.post(
    '/identity/sessions/resent_otp',
    docs(
      'Send the login code by email or SMS',
      { body: resendLoginCodeSchema, response: messageResponse, status: 201, errors: [401] },
      open(10),
    ),
    async (request, reply) => {
      const input = resendLoginCodeSchema.parse(request.body ?? {});
      await deps.captcha.verify(input.captcha_response, request.ip);
      await sendLoginCode(deps, input, origin(request));
      return reply.status(201).send({ message: 'identity.otp.sent' });
    },
  );

  // Barong's password strength meter (BaseApp calls it as the user types): a score, nothing stored.
  app.post(
    '/identity/password/validate',
    docs(
      'Score a password (entropy in bits)',
      { body: passwordToScore, response: passwordEntropyResponse, status: 201 },
      limit(60),
    ),
    async (request, reply) => {
      const { password } = passwordToScore.parse(request.body ?? {});
      return reply.status(201).send({ entropy: passwordEntropy(password) });
    },
  );

  app.post(
    '/identity/users/password/generate_code',
    docs(
      'Email a password reset link',
      { body: forgotPasswordSchema, response: messageResponse, status: 201 },
      open(5),
    ),
    async (request, reply) => {
      const input = forgotPasswordSchema.parse(request.body ?? {});
      await deps.captcha.verify(input.captcha_response, request.ip);
      await requestPasswordReset(deps, input.email, deps.config.publicUrl);
      return reply.status(201).send({ message: 'password.reset_sent' });
    },
  );

  app.post(
    '/identity/users/password/confirm_code',
    docs(
      'Set a new password with a reset token',
      { body: resetPasswordSchema, response: messageResponse, status: 201 },
      open(10),
    ),
    async (request, reply) => {
      const input = resetPasswordSchema.parse(request.body ?? {});
      await confirmPasswordReset(deps, input.reset_password_token, input.password, origin(request));
      return reply.status(201).send({ message: 'password.reset' });
    },
  );

  // Logout needs the session cookie only (BaseApp sends no CSRF header here); see RequireAuthOptions.
  app.delete(
    '/identity/sessions',
    docs(
      'Log out (the session cookie alone is enough)',
      { response: messageResponse, security: 'sessionNoCsrf' },
      { onRequest: requireAuth(deps.users, deps.sessions, undefined, { csrf: false }) },
    ),
    async (request, reply) => {
      const auth = request.auth;
      if (!auth?.sessionId) throw new AppError(401, [ERRORS.invalidSession]);
      await deps.sessions.revoke(auth.sessionId);
      await recordActivity(deps.db, {
        userId: auth.user.id,
        action: 'logout',
        result: 'succeed',
        ...origin(request),
      });
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return reply.status(200).send({ message: 'identity.session.destroyed' });
    },
  );
}

/**
 * Sets the session cookie: `Secure` whenever users reach the app over https (`PUBLIC_URL`), even when TLS ends
 * at a proxy that forwards plain http, and on any request that arrived over https.
 */
function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
  publicUrl: string,
): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https' || publicUrl.startsWith('https:'),
  });
}
