import {
  CARD_ERRORS,
  CARD_IMAGE_MAX_BYTES,
  cardActionSchema,
  cardActivateSchema,
  cardChargesQuery,
  cardCostSchema,
  cardTopupSchema,
  cardTransactionSchema,
  checkDocumentQuery,
  createCardholderSchema,
  priceConversionQuery,
  topupListQuery,
  uploadDocumentFields,
} from '@exchange/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app.ts';
import { authUser, requireAuth } from '../../http/auth.ts';
import { invalid } from '../../http/errors.ts';
import { acceptMultipart, parseMultipart } from '../../http/multipart.ts';
import { docs } from '../../http/openapi.ts';
import { paged } from '../../http/paging.ts';
import { sessionOnly } from '../../http/session-only.ts';
import { utcToday } from './context.ts';

/** Path of the issuer's webhooks, under the Peatio prefix. */
export const CARD_WEBHOOK_PATH = '/public/card/webhook';

const cardQuery = cardActionSchema.pick({ card_number: true });

/** Per account, so users behind one address do not share a budget. */
const perAccount = (max: number) => ({
  config: {
    rateLimit: {
      max,
      timeWindow: '1 minute',
      keyGenerator: (r: FastifyRequest) => `card:${r.auth?.user.id ?? r.ip}`,
    },
  },
});

/**
 * The card calls of the trading spec §7 (Peatio `account/*`), for the signed-in user's own holder and cards. An
 * API key may read and top up; the holder's application and documents, the card number and the PIN need the
 * browser session ({@link sessionOnly}).
 */
export async function cardRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.addHook('onRequest', requireAuth(deps.db, deps.sessions, deps.apiKeys));
  acceptMultipart(app, 2 * CARD_IMAGE_MAX_BYTES);
  const { holders, cards, actions } = deps.cards;
  const meta = (r: FastifyRequest) => ({ ip: r.ip, userAgent: r.headers['user-agent'] ?? null });
  const card = (r: FastifyRequest) => cardQuery.parse(r.query).card_number;
  const action = (r: FastifyRequest) => cardActionSchema.parse(r.body ?? {}).card_number;

  app.get(
    '/account/cardholder/check_document',
    docs('Card: documents accepted for a country', { query: checkDocumentQuery }),
    async (request) => holders.checkDocument(checkDocumentQuery.parse(request.query).country),
  );
  app.post(
    '/account/cardholder',
    docs('Card: apply as a card holder', { body: createCardholderSchema }, sessionOnly(perAccount(20))),
    async (request, reply) => {
      const input = createCardholderSchema.parse(request.body ?? {});
      return reply.status(201).send(await holders.create(authUser(request), input));
    },
  );
  app.post(
    '/account/upload_document',
    docs('Card: upload a holder document', { bodyType: 'multipart' }, sessionOnly(perAccount(30))),
    async (request, reply) => {
      const contentType = request.headers['content-type'] ?? '';
      if (!Buffer.isBuffer(request.body) || !contentType.startsWith('multipart/'))
        throw invalid(CARD_ERRORS.documentRequired);
      const form = await parseMultipart(request.body, contentType, {
        maxFileBytes: CARD_IMAGE_MAX_BYTES,
        maxFiles: 1,
      }).catch(() => {
        throw invalid(CARD_ERRORS.documentRequired);
      });
      const { doc_type } = uploadDocumentFields.parse(form.fields);
      const file = form.files.find((f) => f.field === 'document_data');
      return reply.status(201).send(await holders.upload(authUser(request), doc_type, file));
    },
  );
  app.post(
    '/account/cardholder_document',
    docs('Card: submit the holder documents', { bodyType: 'multipart' }, sessionOnly(perAccount(10))),
    async (request, reply) => reply.status(201).send(await holders.submit(authUser(request))),
  );
  app.get('/account/card_audit', docs('Card: the holder review state'), async (request) =>
    holders.audit(authUser(request)),
  );
  app.get('/account/cardholder_details', docs("Card: the holder's details"), async (request) =>
    holders.details(authUser(request)),
  );
  app.get(
    '/account/cardholder/documents/:doc_type',
    docs('Card: one uploaded holder document', { params: uploadDocumentFields }, sessionOnly()),
    async (request, reply) => {
      const { doc_type } = uploadDocumentFields.parse(request.params);
      const image = await holders.image(authUser(request), doc_type);
      return reply
        .type(image.mimeType)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(image.content);
    },
  );

  app.get('/account/card_fee', docs('Card: fees and limits'), async () => deps.cards.fee());
  app.post(
    '/account/card_cost',
    docs('Card: order (or pay for) a card', { body: cardCostSchema }, perAccount(20)),
    async (request, reply) => {
      const input = cardCostSchema.parse(request.body ?? {});
      return reply.status(201).send(await cards.cost(authUser(request), input));
    },
  );
  app.get('/account/cards', docs("Card: the user's cards"), async (request) => cards.list(authUser(request)));
  app.get('/account/card_details', docs('Card: one card'), async (request) =>
    cards.details(authUser(request), card(request)),
  );
  app.get(
    '/account/cards/reveal',
    docs('Card: reveal the card number', {}, sessionOnly(perAccount(10))),
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return cards.reveal(authUser(request), card(request), meta(request));
    },
  );
  app.post(
    '/account/card_activate',
    docs('Card: activate with its number', { body: cardActivateSchema }, perAccount(10)),
    async (request, reply) => {
      const { card_number } = cardActivateSchema.parse(request.body ?? {});
      return reply.status(201).send(await cards.activate(authUser(request), card_number));
    },
  );
  app.post('/account/report/card_loss', docs('Card: block', {}, perAccount(20)), async (request, reply) =>
    reply.status(201).send(await actions.block(authUser(request), action(request))),
  );
  app.post('/account/remove/card_loss', docs('Card: unblock', {}, perAccount(20)), async (request, reply) =>
    reply.status(201).send(await actions.unblock(authUser(request), action(request))),
  );
  app.post('/account/replace_card', docs('Card: replace', {}, perAccount(10)), async (request, reply) =>
    reply.status(201).send(await actions.replace(authUser(request), action(request))),
  );
  app.get(
    '/account/password/retrieval',
    docs('Card: send the PIN by SMS', {}, sessionOnly(perAccount(5))),
    async (request) => actions.retrievePin(authUser(request), card(request), meta(request)),
  );
  app.post(
    '/account/card_topup',
    docs('Card: top up from the USDT balance', { body: cardTopupSchema }, perAccount(30)),
    async (request, reply) => {
      const input = cardTopupSchema.parse(request.body ?? {});
      return reply.status(201).send(await deps.cards.topups.topup(authUser(request), input));
    },
  );
  app.get(
    '/account/list/topup_transactions',
    docs('Card: top-ups, paged', { query: topupListQuery }),
    async (request) => {
      const q = topupListQuery.parse(request.query);
      return deps.cards.topups.list(authUser(request), q.card_number, q.page, q.limit);
    },
  );
  app.post('/account/card_transaction', docs('Card: the statement'), async (request) => {
    const input = cardTransactionSchema(utcToday()).parse(request.body ?? {});
    return deps.cards.statement.page(authUser(request), input);
  });
  app.get(
    '/account/price/conversion',
    docs('Card: USDT/EUR conversion', { query: priceConversionQuery }),
    async (request) => deps.cards.topups.conversion(priceConversionQuery.parse(request.query)),
  );
  app.get(
    '/account/card_charges',
    docs('Card: charges', { query: cardChargesQuery }),
    async (request, reply) => {
      const q = cardChargesQuery.parse(request.query);
      const page = await cards.charges(authUser(request), q.card_number, q.page, q.limit);
      paged(reply, page.total, q.page, q.limit);
      return page.items;
    },
  );
}

/**
 * The issuer's webhooks (no session): the raw body is kept as bytes, because its signature is checked before
 * anything parses it.
 */
export async function cardWebhookRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1 << 20 }, (_request, body, done) =>
    done(null, body),
  );
  app.post(CARD_WEBHOOK_PATH, docs('Card issuer webhooks (signed)'), async (request) => {
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    return { status: 'ok', ...(await deps.cards.webhooks.handle(raw, request.headers)) };
  });
}
