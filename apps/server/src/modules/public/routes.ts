import { ERRORS } from '@exchange/shared';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app.ts';

/** Peatio public service routes that need no other module: server time and health. */
export async function peatioPublicRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  // Peatio answers with a bare JSON string; Fastify would send a returned string as plain text.
  app.get('/public/timestamp', async (_request, reply) =>
    reply.type('application/json').send(JSON.stringify(new Date().toISOString())),
  );

  app.get('/public/health/alive', async (_request, reply) => {
    try {
      await deps.db.query('select 1');
      return { status: 'alive' };
    } catch {
      return reply.status(503).send({ errors: [ERRORS.databaseUnavailable] });
    }
  });
}

/** Barong's liveness routes. */
export async function barongPublicRoutes(app: FastifyInstance): Promise<void> {
  app.get('/identity/ping', async () => ({ ping: 'pong' }));
  app.get('/identity/time', async () => ({ time: Math.floor(Date.now() / 1000) }));
}
