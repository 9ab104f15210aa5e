import {
  CARD_ERRORS,
  CARD_IMAGE_MAX_BYTES,
  cardActionSchema,
  cardActivateSchema,
  cardAuditResponse,
  cardChargeResponse,
  cardChargesQuery,
  cardCostSchema,
  cardDataResponse,
  cardFeeResponse,
  cardHolderStateResponse,
  cardListItemResponse,
  cardPinRevealResponse,
  cardPinRevealSchema,
  cardRevealResponse,
  cardTopupSchema,
  cardTransactionSchema,
  cardWebhookResultResponse,
  checkDocumentQuery,
  checkDocumentResponse,
  createCardholderSchema,
  priceConversionQuery,
  priceConversionResponse,
  statementPageResponse,
  topupItemResponse,
  topupListQuery,
  topupListResponse,
  uploadDocumentFields,
} from '@exchange/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { authUser, requireAuth } from '../../http/auth.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { readMultipart, streamMultipart } from '../../http/multipart.ts';
import { docs } from '../../http/openapi.ts';
import { paged } from '../../http/paging.ts';
import { sessionOnly } from '../../http/session-only.ts';
import { utcToday } from './context.ts';
import type { CardRouteDeps } from './deps.ts';
import { WEBHOOK_ERRORS } from './webhooks.ts';

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
 * The card calls of docs/cards.md#api (Peatio `account/*`), for the signed-in user's own holder and cards. An
 * API key may read and top up; the holder's application and documents, the card number and the PIN need the
 * browser session ({@link sessionOnly}).
 */
export async function cardRoutes(app: FastifyInstance, deps: CardRouteDeps): Promise<void> {
  app.addHook('onRequest', requireAuth(deps.users, deps.sessions, deps.apiKeys));
  // One image under 10 MB and its form, streamed after the session check; a larger Content-Length is refused
  // before the body is read.
  streamMultipart(app, CARD_IMAGE_MAX_BYTES + 64 * 1024);
  const { holders, cards, actions } = deps.cards;
  const meta = (r: FastifyRequest) => ({ ip: r.ip, userAgent: r.headers['user-agent'] ?? null });
  const card = (r: FastifyRequest) => cardQuery.parse(r.query).card_number;
  const action = (r: FastifyRequest) => cardActionSchema.parse(r.body ?? {}).card_number;

  app.get(
    '/account/cardholder/check_document',
    docs('Card: documents accepted for a country', {
      query: checkDocumentQuery,
      response: checkDocumentResponse,
    }),
    async (request) => holders.checkDocument(checkDocumentQuery.parse(request.query).country),
  );
  app.post(
    '/account/cardholder',
    docs(
      'Card: apply as a card holder',
      { body: createCardholderSchema, response: cardHolderStateResponse, status: 201, errors: [502, 504] },
      sessionOnly(perAccount(20)),
    ),
    async (request, reply) => {
      const input = createCardholderSchema.parse(request.body ?? {});
      return reply.status(201).send(await holders.create(authUser(request), input));
    },
  );
  app.post(
    '/account/upload_document',
    docs(
      'Card: upload a holder document (doc_type, file document_data)',
      { bodyType: 'multipart', response: cardHolderStateResponse, status: 201 },
      sessionOnly(perAccount(30)),
    ),
    async (request, reply) => {
      // "Under 10 MB": a file of CARD_IMAGE_MAX_BYTES is one byte too many.
      const form = await readMultipart(request, reply, {
        maxFileBytes: CARD_IMAGE_MAX_BYTES - 1,
        maxFiles: 1,
      });
      if (!form) throw invalid(CARD_ERRORS.documentRequired);
      if (form.fileTooLarge) throw invalid(CARD_ERRORS.documentTooLarge);
      const { doc_type } = uploadDocumentFields.parse(form.fields);
      const file = form.files.find((f) => f.field === 'document_data');
      return reply.status(201).send(await holders.upload(authUser(request), doc_type, file));
    },
  );
  app.post(
    '/account/cardholder_document',
    docs(
      'Card: submit the holder documents',
      { bodyType: 'multipart', response: cardHolderStateResponse, status: 201, errors: [502, 504] },
      sessionOnly(perAccount(10)),
    ),
    async (request, reply) => reply.status(201).send(await holders.submit(authUser(request))),
  );
  app.get(
    '/account/card_audit',
    docs('Card: the holder review state', { response: cardAuditResponse }),
    async (request) => holders.audit(authUser(request)),
  );
  app.get(
    '/account/cardholder_details',
    docs("Card: the holder's details", { response: cardHolderStateResponse }),
    async (request) => holders.details(authUser(request)),
  );
  app.get(
    '/account/cardholder/documents/:doc_type',
    docs(
      'Card: one uploaded holder document (the image)',
      { params: uploadDocumentFields, content: 'file' },
      sessionOnly(),
    ),
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

  app.get('/account/card_fee', docs('Card: fees and limits', { response: cardFeeResponse }), async () =>
    deps.cards.fee(),
  );
  app.post(
    '/account/card_cost',
    docs(
      'Card: order (or pay for) a card',
      { body: cardCostSchema, response: cardListItemResponse, status: 201, errors: [502, 504] },
      perAccount(20),
    ),
    async (request, reply) => {
      const input = cardCostSchema.parse(request.body ?? {});
      return reply.status(201).send(await cards.cost(authUser(request), input));
    },
  );
  app.get(
    '/account/cards',
    docs("Card: the user's cards", { response: z.array(cardListItemResponse) }),
    async (request) => cards.list(authUser(request)),
  );
  app.get(
    '/account/card_details',
    docs('Card: one card', { query: cardQuery, response: cardDataResponse }),
    async (request) => cards.details(authUser(request), card(request)),
  );
  app.get(
    '/account/cards/reveal',
    docs(
      'Card: reveal the card number',
      { query: cardQuery, response: cardRevealResponse, errors: [502, 504] },
      sessionOnly(perAccount(10)),
    ),
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return cards.reveal(authUser(request), card(request), meta(request));
    },
  );
  app.post(
    '/account/card_activate',
    docs(
      'Card: activate with its number',
      { body: cardActivateSchema, response: cardListItemResponse, status: 201, errors: [502, 504] },
      perAccount(10),
    ),
    async (request, reply) => {
      const { card_number } = cardActivateSchema.parse(request.body ?? {});
      return reply.status(201).send(await cards.activate(authUser(request), card_number));
    },
  );
  app.post(
    '/account/report/card_loss',
    docs(
      'Card: block',
      { body: cardActionSchema, response: cardListItemResponse, status: 201, errors: [502, 504] },
      perAccount(20),
    ),
    async (request, reply) => reply.status(201).send(await actions.block(authUser(request), action(request))),
  );
  app.post(
    '/account/remove/card_loss',
    docs(
      'Card: unblock',
      { body: cardActionSchema, response: cardListItemResponse, status: 201, errors: [502, 504] },
      perAccount(20),
    ),
    async (request, reply) =>
      reply.status(201).send(await actions.unblock(authUser(request), action(request))),
  );
  app.post(
    '/account/replace_card',
    docs(
      'Card: replace',
      { body: cardActionSchema, response: cardListItemResponse, status: 201, errors: [502, 504] },
      perAccount(10),
    ),
    async (request, reply) =>
      reply.status(201).send(await actions.replace(authUser(request), action(request))),
  );
  app.post(
    '/account/password/retrieval',
    docs(
      'Card: show the PIN (a browser session and a fresh authenticator code; never sent or stored)',
      { body: cardPinRevealSchema, response: cardPinRevealResponse, errors: [502, 504] },
      // Wrong codes are also counted per account in the database (PIN_REVEAL_POLICY). A PIN is for the
      // cardholder's eyes: a program signing with an API key never gets one.
      sessionOnly(perAccount(10)),
    ),
    async (request, reply) => {
      const input = cardPinRevealSchema.parse(request.body ?? {});
      reply.header('cache-control', 'no-store');
      return deps.cards.pin.reveal(authUser(request), input, meta(request));
    },
  );
  app.post(
    '/account/card_topup',
    docs(
      'Card: top up from the USDT balance',
      { body: cardTopupSchema, response: topupItemResponse, status: 201 },
      perAccount(30),
    ),
    async (request, reply) => {
      const input = cardTopupSchema.parse(request.body ?? {});
      return reply.status(201).send(await deps.cards.topups.topup(authUser(request), input));
    },
  );
  app.get(
    '/account/list/topup_transactions',
    docs('Card: top-ups, paged', { query: topupListQuery, response: topupListResponse }),
    async (request) => {
      const q = topupListQuery.parse(request.query);
      return deps.cards.topups.list(authUser(request), q.card_number, q.page, q.limit);
    },
  );
  app.post(
    '/account/card_transaction',
    docs('Card: the statement', {
      body: cardTransactionSchema(utcToday(deps.clock)),
      response: statementPageResponse,
    }),
    async (request) => {
      const input = cardTransactionSchema(utcToday(deps.clock)).parse(request.body ?? {});
      return deps.cards.statement.page(authUser(request), input);
    },
  );
  app.get(
    '/account/price/conversion',
    docs('Card: USDT/EUR conversion', { query: priceConversionQuery, response: priceConversionResponse }),
    async (request) => deps.cards.topups.conversion(priceConversionQuery.parse(request.query)),
  );
  app.get(
    '/account/card_charges',
    docs('Card: charges', { query: cardChargesQuery, response: z.array(cardChargeResponse), paged: true }),
    async (request, reply) => {
      const q = cardChargesQuery.parse(request.query);
      const page = await cards.charges(authUser(request), q.card_number, q.page, q.limit);
      paged(reply, page.total, q.page, q.limit);
      return page.items;
    },
  );
}

/**
 * Largest issuer webhook read: Marqeta posts one notification of a few KB (its arrays may batch events), so
 * 256 KiB leaves a wide margin while a body ten times that is refused from its Content-Length.
 */
export const CARD_WEBHOOK_BODY_LIMIT = 256 * 1024;

/** Per client address: the issuer's bursts fit, a flood does not (the issuer retries a 429 later). */
const WEBHOOK_RATE = { config: { rateLimit: { max: 600, timeWindow: '1 minute' } } };

/**
 * The issuer's webhooks (no session): the raw body is kept as bytes, because its signature is checked before
 * anything parses it. A post without the webhook's Basic credentials is refused before its body is read.
 */
export async function cardWebhookRoutes(app: FastifyInstance, deps: CardRouteDeps): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: CARD_WEBHOOK_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );
  app.post(
    CARD_WEBHOOK_PATH,
    {
      ...docs(
        'Card issuer webhooks (Basic credentials and X-Marqeta-Signature)',
        { bodyType: 'raw', response: cardWebhookResultResponse, errors: [400, 401] },
        WEBHOOK_RATE,
      ),
      preParsing: async (request) => {
        if (!deps.cards.webhooks.authorizes(request.headers))
          throw new AppError(401, [WEBHOOK_ERRORS.unauthorized]);
      },
    },
    async (request) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      return { status: 'ok', ...(await deps.cards.webhooks.handle(raw, request.headers)) };
    },
  );
}
