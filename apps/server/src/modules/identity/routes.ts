import {
  ERRORS,
  forgotPasswordSchema,
  loginSchema,
  registerSchema,
  resendLoginCodeSchema,
  resetPasswordSchema,
  sendVerificationCodeSchema,
  verifyAccountSchema,
} from '@exchange/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app.ts';
import { requireAuth } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { login, sendLoginCode } from './login.ts';
import { confirmPasswordReset, requestPasswordReset } from './password.ts';
import { register, resendVerificationCode, verifyAccount } from './registration.ts';
import { SESSION_COOKIE } from './sessions.ts';
import { recordActivity } from './users-repository.ts';

const origin = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'] ?? null,
});
const limit = (max: number) => ({ config: { rateLimit: { max, timeWindow: '1 minute' } } });

/** Barong `identity/*` routes: registration, verification, login and logout. */
export async function identityRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.post('/identity/users', limit(10), async (request, reply) => {
    const input = registerSchema.parse(request.body ?? {});
    await deps.captcha.verify(input.captcha_response, request.ip);
    return reply.status(201).send(await register(deps, input, origin(request)));
  });

  app.post('/identity/users/verify_account', limit(20), async (request) => {
    return verifyAccount(deps, verifyAccountSchema.parse(request.body ?? {}), origin(request));
  });

  for (const channel of ['email', 'phone'] as const) {
    app.post(`/identity/users/send_otp/${channel}`, limit(10), async (request, reply) => {
      const input = sendVerificationCodeSchema.parse(request.body ?? {});
      await resendVerificationCode(deps, input.email, channel);
      return reply.status(201).send({ message: 'identity.otp.sent' });
    });
  }

  app.post('/identity/sessions', limit(30), async (request, reply) => {
    const input = loginSchema.parse(request.body ?? {});
    await deps.captcha.verify(input.captcha_response, request.ip);
    const result = await login(deps, input, origin(request));
    if (result.kind === 'pending') return result.body;
    setSessionCookie(request, reply, result.token);
    return result.body;
  });

  app.post('/identity/sessions/resent_otp', limit(10), async (request, reply) => {
    const input = resendLoginCodeSchema.parse(request.body ?? {});
    await deps.captcha.verify(input.captcha_response, request.ip);
    await sendLoginCode(deps, input, origin(request));
    return reply.status(201).send({ message: 'identity.otp.sent' });
  });

  app.post('/identity/users/password/generate_code', limit(5), async (request, reply) => {
    const input = forgotPasswordSchema.parse(request.body ?? {});
    await deps.captcha.verify(input.captcha_response, request.ip);
    await requestPasswordReset(deps, input.email, deps.config.publicUrl);
    return reply.status(201).send({ message: 'password.reset_sent' });
  });

  app.post('/identity/users/password/confirm_code', limit(10), async (request, reply) => {
    const input = resetPasswordSchema.parse(request.body ?? {});
    await confirmPasswordReset(deps, input.reset_password_token, input.password, origin(request));
    return reply.status(201).send({ message: 'password.reset' });
  });

  app.delete(
    '/identity/sessions',
    { onRequest: requireAuth(deps.db, deps.sessions) },
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

function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
  });
}
