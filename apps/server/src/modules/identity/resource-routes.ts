import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../../app.ts';
import { authUser, requireAuth } from '../../http/auth.ts';
import { userEntity } from './users-repository.ts';

const activityQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(10) });

/** Barong `resource/users/*`: the signed-in user's own data. */
export async function userResourceRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.addHook('onRequest', requireAuth(deps.db, deps.sessions));

  app.get('/resource/users/me', async (request) => userEntity(deps.db, authUser(request)));

  app.get('/resource/users/activity/:topic', async (request) => {
    const { limit } = activityQuery.parse(request.query);
    const topic = (request.params as { topic: string }).topic;
    const rows = await deps.db.query(
      `select action, result, ip, user_agent, created_at from activities
       where user_id = $1 and ($2 = 'all' or topic = $2) order by id desc limit $3`,
      [authUser(request).id, topic, limit],
    );
    return rows.rows;
  });
}
