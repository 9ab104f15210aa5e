import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app.ts';
import { authUser, requireAuth } from '../../http/auth.ts';

/** Peatio `account/members/me`: the trading service's view of the signed-in member. */
export async function memberRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.addHook('onRequest', requireAuth(deps.db, deps.sessions, deps.apiKeys));
  app.get('/account/members/me', async (request) => {
    const user = authUser(request);
    return {
      uid: user.uid,
      email: user.email,
      level: user.level,
      role: user.role,
      state: user.state,
      group: 'any',
    };
  });
}
