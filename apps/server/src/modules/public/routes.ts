import {
  barongTimeResponse,
  captchaChallengeResponse,
  ERRORS,
  identityConfigsResponse,
  MEMBER_LEVELS,
  memberLevelsResponse,
  pingResponse,
  readinessResponse,
  serverTimeResponse,
  versionResponse,
} from '@exchange/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AltchaCaptcha } from '../../adapters/captcha/altcha.ts';
import { pingDatabase } from '../../db/pool.ts';
import { docs } from '../../http/openapi.ts';
import { MIN_PASSWORD_ENTROPY } from '../identity/entropy.ts';
import type { PublicRouteDeps } from './deps.ts';
import { runningVersion } from './version.ts';

/**
 * Peatio public service routes that need no other module: server time, the running version, the member levels and health. `health/alive` answers
 * while the database does; `health/ready` also needs the exchange core to take commands (it pauses while it
 * reloads from a database that came back). Both answer 503 `server.database_unavailable` otherwise.
 */
export async function peatioPublicRoutes(app: FastifyInstance, deps: PublicRouteDeps): Promise<void> {
  // Peatio answers with a bare JSON string; Fastify would send a returned string as plain text.
  app.get(
    '/public/timestamp',
    docs('Server time (ISO 8601, a bare JSON string)', { response: serverTimeResponse }),
    async (_request, reply) => reply.type('application/json').send(JSON.stringify(new Date().toISOString())),
  );

  const version = runningVersion();
  app.get(
    '/public/version',
    docs('Running version: git_tag, git_sha, build_date, version', { response: versionResponse }),
    async () => version,
  );

  app.get(
    '/public/member-levels',
    docs('Least account level per privilege', { response: memberLevelsResponse }),
    async () => MEMBER_LEVELS,
  );

  app.get(
    '/public/health/alive',
    docs('Liveness', { response: z.object({ status: z.literal('alive') }) }),
    async (_request, reply) => {
      try {
        await pingDatabase(deps.db);
        return { status: 'alive' };
      } catch {
        return reply.status(503).send({ errors: [ERRORS.databaseUnavailable] });
      }
    },
  );

  app.get(
    '/public/health/ready',
    docs('Readiness: the database and the exchange core', { response: readinessResponse }),
    async (_request, reply) => {
      try {
        await pingDatabase(deps.db);
      } catch {
        return reply.status(503).send({ errors: [ERRORS.databaseUnavailable] });
      }
      if (!deps.core.sequencer.available)
        return reply.status(503).send({ errors: [ERRORS.databaseUnavailable] });
      // Per role: with the core role this process holds the core lease (a standby core does not serve until it has
      // taken it over); without it, commands go to the active core, whose term it last saw.
      return {
        status: 'ready',
        roles: [...deps.config.roles],
        core: { active: deps.config.roles.has('core'), term: deps.core.sequencer.coreTerm },
      };
    },
  );
}

/** Barong's liveness routes, the running version, the public client configuration and the captcha challenge. */
export async function barongPublicRoutes(app: FastifyInstance, deps: PublicRouteDeps): Promise<void> {
  app.get('/identity/ping', docs('Liveness', { response: pingResponse }), async () => ({ ping: 'pong' }));
  app.get(
    '/identity/time',
    docs('Server time (Unix seconds)', { response: barongTimeResponse }),
    async () => ({
      time: Math.floor(Date.now() / 1000),
    }),
  );
  const version = runningVersion();
  app.get(
    '/identity/version',
    docs('Running version: git_tag, git_sha, build_date, version', { response: versionResponse }),
    async () => version,
  );
  app.get(
    '/identity/configs',
    docs('Public client configuration', { response: identityConfigsResponse }),
    async () => ({
      captcha_type: deps.config.captchaType,
      captcha_id: deps.config.captchaType === 'recaptcha' ? deps.config.recaptcha?.siteKey : undefined,
      session_expire_time: 3600,
      password_min_length: 8,
      password_min_entropy: MIN_PASSWORD_ENTROPY,
    }),
  );
  app.get(
    '/identity/captcha/challenge',
    docs('A captcha challenge (ALTCHA; 404 with another captcha)', {
      response: captchaChallengeResponse,
      errors: [404],
    }),
    async (_request, reply) => {
      if (!('challenge' in deps.captcha)) return reply.status(404).send({ errors: [ERRORS.routeNotFound] });
      reply.header('cache-control', 'no-store');
      return (deps.captcha as AltchaCaptcha).challenge();
    },
  );
}
