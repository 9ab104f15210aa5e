import { memberResponse, portfolioResponse } from '@exchange/shared';
import type { FastifyInstance } from 'fastify';
import { authUser, requireAuth } from '../../http/auth.ts';
import { docs } from '../../http/openapi.ts';
import { listBalances } from '../trading/repository.ts';
import { portfolio } from '../wallet/valuation.ts';
import type { MemberRouteDeps } from './deps.ts';

/**
 * Peatio member routes of the signed-in user: `account/members/me` and `account/me` (the member entity) and the
 * portfolio (`account/portfolio`, `account/update/portfolio`).
 */
export async function memberRoutes(app: FastifyInstance, deps: MemberRouteDeps): Promise<void> {
  app.addHook('onRequest', requireAuth(deps.users, deps.sessions, deps.apiKeys));
  /**
   * Peatio's member entity, on both paths: uid, email, level, role, group, state, the accounts (currency, balance,
   * locked as decimal strings) and the timestamps. The database id is not shown.
   */
  for (const [path, summary] of [
    ['/account/members/me', 'The member (Peatio)'],
    ['/account/me', 'The member with accounts'],
  ] as const) {
    app.get(path, docs(summary, { response: memberResponse }), async (request) => {
      const user = authUser(request);
      await deps.core.sequencer.settled();
      const accounts = (await listBalances(deps.db, Number(user.id))).map((b) => ({
        currency: b.currency,
        balance: b.balance,
        locked: b.locked,
      }));
      return {
        uid: user.uid,
        email: user.email,
        level: user.level,
        role: user.role,
        group: 'any',
        state: user.state,
        accounts,
        created_at: user.created_at,
        updated_at: user.updated_at,
      };
    });
  }

  // Nothing is cached: both compute the portfolio afresh from the committed balances at current prices.
  for (const path of ['/account/portfolio', '/account/update/portfolio']) {
    app.get(
      path,
      docs('Portfolio per currency with USDT values', { response: portfolioResponse }),
      async (request) => portfolio(deps.core, Number(authUser(request).id), deps.clock),
    );
  }
}
