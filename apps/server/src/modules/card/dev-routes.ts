import { cardNetworkOutcomeResponse, ERRORS, toUnits } from '@exchange/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { dateOf } from '../../clock.ts';
import { authUser, requireAuth } from '../../http/auth.ts';
import { notFound } from '../../http/errors.ts';
import { loopbackOnly } from '../../http/loopback.ts';
import { docs } from '../../http/openapi.ts';
import type { CardRouteDeps } from './deps.ts';
import { listCards } from './repository.ts';

/** Euro with at most 2 decimals. */
const eurAmount = z
  .string()
  .trim()
  .regex(/^(0|[1-9]\d{0,6})(\.\d{1,2})?$/);

const refundSchema = z.object({
  trade_id: z.string().trim().min(1).max(64),
  /** Part of the purchase; all of what is left when missing. */
  eur: eurAmount.optional(),
});

const spendSchema = z.object({
  card_number: z.string().trim().min(1).max(32),
  /** Euro with at most 2 decimals. */
  eur: z
    .string()
    .trim()
    .regex(/^(0|[1-9]\d{0,6})(\.\d{1,2})?$/),
  merchant: z.string().trim().max(60).optional(),
});

/**
 * The dev card terminal (DEV_TOOLS, this machine only, the simulated issuer only): `POST /card/spend` makes a
 * purchase on one of the signed-in user's own cards at the simulator's card network, as `npm run cli -- card
 * spend` does, and answers its outcome (`trade_id`, `status` settled or declined, `reason`); `POST /card/refund`
 * has the merchant refund one of those purchases (all of what is left, or `eur` of it), as `card refund` does.
 */
export async function cardDevRoutes(app: FastifyInstance, deps: CardRouteDeps): Promise<void> {
  const simulator = deps.cardSimulator;
  if (!simulator) return;
  app.addHook('onRequest', loopbackOnly);
  app.addHook('onRequest', requireAuth(deps.users, deps.sessions, deps.apiKeys));
  app.post(
    '/card/spend',
    docs('Dev: a card purchase on the simulated network', {
      body: spendSchema,
      response: cardNetworkOutcomeResponse,
      status: 201,
      security: 'sessionOrKey',
    }),
    async (request, reply) => {
      const input = spendSchema.parse(request.body ?? {});
      const card = await deps.cards.cards.resolve(authUser(request), input.card_number);
      const outcome = await simulator.network.purchase(
        {
          cardToken: card.issuer_token,
          eurCents: toUnits(input.eur, 2),
          merchant: input.merchant || 'Dev card terminal',
          eurPerUsdt: deps.config.card.fees.eurPerUsdt,
        },
        dateOf(deps.clock),
      );
      // Its webhook (the card's new balance) goes out now rather than at the next poll.
      simulator.delivery.kick();
      return reply.status(201).send(outcome);
    },
  );

  app.post(
    '/card/refund',
    docs('Dev: refund a card purchase', {
      body: refundSchema,
      response: cardNetworkOutcomeResponse,
      status: 201,
      security: 'sessionOrKey',
    }),
    async (request, reply) => {
      const input = refundSchema.parse(request.body ?? {});
      const cardToken = await simulator.network.purchaseCard(input.trade_id);
      const own = await listCards(deps.db, authUser(request).id);
      // Someone else's purchase, or none at all: not found either way.
      if (!cardToken || !own.some((card) => card.issuer_token === cardToken)) throw notFound();
      const outcome = await simulator.network.refund(
        input.trade_id,
        input.eur === undefined ? undefined : toUnits(input.eur, 2),
      );
      if (outcome === 'unknown_trade') throw notFound();
      if (outcome === 'too_much') return reply.status(422).send({ errors: [ERRORS.invalidParams] });
      simulator.delivery.kick();
      return reply.status(201).send(outcome);
    },
  );
}
