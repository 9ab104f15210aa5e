import type { IssuerCardState } from '@exchange/server/provider-kit';
import {
  acceptMultipart,
  checkBasicAuth,
  parseMultipart,
  sniffDocumentType,
} from '@exchange/server/provider-kit';
import { parseUnits } from '@exchange/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { createSimGpaOrder, gpaOrderView, listSimTransactions, SIM_USDT_DECIMALS } from './money.ts';
import {
  type CardSimulatorCredentials,
  cardView,
  createPinControlToken,
  createSimCard,
  createSimKyc,
  createSimUser,
  findSimCard,
  findSimUser,
  putSimDocument,
  revealSimPin,
  transitionSimCard,
} from './store.ts';

/** Where the simulator is mounted in the app; its API is under `/v3`, as Marqeta's. */
export const CARD_SIMULATOR_PREFIX = '/card-sim';
export const CARD_SIMULATOR_API = `${CARD_SIMULATOR_PREFIX}/v3`;

export interface CardSimulatorDeps {
  db: pg.Pool;
  credentials: CardSimulatorCredentials;
  /** Submitted checks are approved after this many seconds (0: the operator decides). */
  autoApproveSeconds: number;
  /** Ordered cards ship after this many seconds and are delivered as long again later. */
  shipSeconds: number;
  /** A funding order (top-up) settles after this many seconds. */
  topupSettleSeconds: number;
  /** EUR per USDT, a decimal string (what the card network converts at). */
  eurPerUsdt: string;
  /** Runs the webhook delivery now rather than at its next poll. */
  kick(): void;
}

/** Marqeta's error body. */
const fail = (reply: FastifyReply, status: number, message: string) =>
  reply.status(status).send({ error_message: message, error_code: String(status) });

const STATES: IssuerCardState[] = ['UNACTIVATED', 'ACTIVE', 'SUSPENDED', 'TERMINATED'];
const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/**
 * The Marqeta-shaped issuer simulator: `users`, `kyc`, `cards`, `cardtransitions` and `pins` with Basic
 * authentication, plus its document extension. Its outcomes (reviews, shipping) reach the exchange by webhook.
 */
export async function cardSimulatorRoutes(app: FastifyInstance, deps: CardSimulatorDeps): Promise<void> {
  acceptMultipart(app, MAX_IMAGE_BYTES + 64 * 1024);
  app.addHook('onRequest', async (request, reply) => {
    const { apiUsername, apiPassword } = deps.credentials;
    if (!checkBasicAuth(request.headers.authorization, apiUsername, apiPassword))
      return fail(reply, 401, 'Unauthorized');
  });
  const key = deps.credentials.dataKey;
  const body = (request: FastifyRequest): Record<string, unknown> =>
    request.body && typeof request.body === 'object' && !Buffer.isBuffer(request.body)
      ? (request.body as Record<string, unknown>)
      : {};
  const str = (v: unknown) => (typeof v === 'string' && v.length > 0 && v.length <= 64 ? v : undefined);
  const param = (request: FastifyRequest) => (request.params as { token: string }).token;

  app.post('/users', async (request, reply) => {
    const input = body(request);
    if (!str(input.token)) return fail(reply, 400, 'token is required');
    if (!(await createSimUser(deps.db, key, input)))
      return fail(reply, 409, 'The token is already associated with a user');
    return reply.status(201).send(await userView(deps.db, input.token as string));
  });

  app.get('/users/:token', async (request, reply) => {
    const user = await userView(deps.db, param(request));
    return user ? user : fail(reply, 404, 'User not found');
  });

  // The simulator's own extension: the document images its reviewer looks at.
  app.post('/users/:token/documents', async (request, reply) => {
    if (!(await findSimUser(deps.db, param(request)))) return fail(reply, 404, 'User not found');
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const form = await parseMultipart(raw, request.headers['content-type'] ?? '', {
      maxFileBytes: MAX_IMAGE_BYTES,
      maxFiles: 1,
    }).catch(() => null);
    const file = form?.files[0];
    const docType = str(form?.fields.doc_type);
    const mimeType = file ? sniffDocumentType(file.content) : null;
    if (!file || !docType || file.truncated || (mimeType !== 'image/jpeg' && mimeType !== 'image/png'))
      return fail(reply, 400, 'doc_type and a JPEG or PNG document under 10 MB are required');
    const token = await putSimDocument(deps.db, key, param(request), {
      docType,
      mimeType,
      content: file.content,
    });
    return reply.status(201).send({ token, doc_type: docType });
  });

  app.post('/kyc', async (request, reply) => {
    const input = body(request);
    const userToken = str(input.user_token);
    if (!userToken || !(await findSimUser(deps.db, userToken))) return fail(reply, 400, 'Unknown user_token');
    const token = str(input.token) ?? `kyc_${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;
    const kyc = await createSimKyc(deps.db, { token, userToken }, deps.autoApproveSeconds);
    return reply.status(201).send(kyc);
  });

  app.post('/cards', async (request, reply) => {
    const input = body(request);
    const token = str(input.token);
    const userToken = str(input.user_token);
    if (!token || !userToken) return fail(reply, 400, 'token and user_token are required');
    if (!(await findSimUser(deps.db, userToken))) return fail(reply, 400, 'Unknown user_token');
    const from = str(input.new_pan_from_card_token);
    if (from && (await findSimCard(deps.db, from))?.user_token !== userToken)
      return fail(reply, 400, 'Unknown new_pan_from_card_token');
    const shipping = (input.fulfillment as { shipping?: unknown } | undefined)?.shipping;
    const card = await createSimCard(
      deps.db,
      key,
      {
        token,
        userToken,
        cardProductToken: str(input.card_product_token) ?? 'sim_card_product',
        shipping,
        newPanFrom: from,
      },
      deps.shipSeconds,
    );
    if (card === 'exists_for_other_user') return fail(reply, 409, 'The token is already used');
    const showPan = (request.query as Record<string, string | undefined>).show_pan === 'true';
    return reply.status(201).send(cardView(key, card, showPan));
  });

  app.get('/cards/:token', async (request, reply) => {
    const card = await findSimCard(deps.db, param(request));
    if (!card) return fail(reply, 404, 'Card not found');
    return cardView(key, card, (request.query as Record<string, string | undefined>).show_pan === 'true');
  });

  app.post('/cardtransitions', async (request, reply) => {
    const input = body(request);
    const cardToken = str(input.card_token);
    const state = input.state as IssuerCardState;
    if (!cardToken || !STATES.includes(state) || !str(input.channel))
      return fail(reply, 400, 'card_token, state and channel are required');
    const result = await transitionSimCard(deps.db, {
      cardToken,
      state,
      channel: input.channel as string,
      reasonCode: str(input.reason_code) ?? null,
    });
    if (result === 'not_found') return fail(reply, 404, 'Card not found');
    if (result === 'invalid_transition') return fail(reply, 400, 'The card cannot move to that state');
    deps.kick();
    return reply.status(201).send(result);
  });

  // Funding a card (Marqeta's GPA order; `card_token` is the simulator's extension: one balance per card).
  app.post('/gpaorders', async (request, reply) => {
    const input = body(request);
    const token = str(input.token);
    const userToken = str(input.user_token);
    const cardToken = str(input.card_token);
    const currencyCode = str(input.currency_code);
    const funding = str(input.funding_source_token);
    const amount = typeof input.amount === 'string' ? parseUnits(input.amount, SIM_USDT_DECIMALS) : null;
    if (!token || !userToken || !cardToken || !currencyCode || !funding || !amount?.ok || amount.units <= 0n)
      return fail(
        reply,
        400,
        'token, user_token, card_token, amount (a decimal string), currency_code and funding_source_token are required',
      );
    const order = await createSimGpaOrder(
      deps.db,
      { token, userToken, cardToken, units: amount.units, currencyCode, fundingSourceToken: funding },
      deps.topupSettleSeconds,
    );
    if (order === 'unknown_card') return fail(reply, 400, 'Unknown card_token for this user_token');
    if (order === 'token_taken') return fail(reply, 409, 'The token is already used');
    // The settlement falls due in topupSettleSeconds: the outgoing side recomputes when it next wakes.
    deps.kick();
    return reply.status(201).send(gpaOrderView(order));
  });

  app.get('/transactions', async (request, reply) => {
    const q = request.query as Record<string, string | undefined>;
    const date = (v: string | undefined) => (v && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : undefined);
    const cardToken = str(q.card_token);
    const from = date(q.start_date);
    const to = date(q.end_date);
    if (!cardToken || !from || !to)
      return fail(reply, 400, 'card_token, start_date and end_date are required');
    const start = Math.max(0, Number.parseInt(q.start_index ?? '0', 10) || 0);
    const count = Math.min(100, Math.max(1, Number.parseInt(q.count ?? '10', 10) || 10));
    return listSimTransactions(deps.db, {
      cardToken,
      from,
      to,
      pending: q.state === 'PENDING',
      start,
      count,
    });
  });

  app.post('/pins/controltoken', async (request, reply) => {
    const input = body(request);
    const cardToken = str(input.card_token);
    if (!cardToken || input.controltoken_type !== 'REVEAL_PIN')
      return fail(reply, 400, 'card_token and controltoken_type REVEAL_PIN are required');
    if (!(await findSimCard(deps.db, cardToken))) return fail(reply, 404, 'Card not found');
    return reply.status(201).send({ control_token: await createPinControlToken(deps.db, cardToken) });
  });

  app.post('/pins/reveal', async (request, reply) => {
    const input = body(request);
    const controlToken = str(input.control_token);
    if (!controlToken || !str(input.cardholder_verification_method))
      return fail(reply, 400, 'control_token and cardholder_verification_method are required');
    const result = await revealSimPin(deps.db, key, controlToken);
    if (result === 'invalid_token') return fail(reply, 400, 'Invalid or expired control token');
    if (result === 'card_not_active') return fail(reply, 400, 'The card is not active');
    reply.header('cache-control', 'no-store');
    return reply.status(201).send(result);
  });
}

async function userView(db: pg.Pool, token: string) {
  const u = await findSimUser(db, token);
  if (!u) return undefined;
  return {
    token: u.token,
    first_name: u.first_name,
    last_name: u.last_name,
    email: u.email ?? undefined,
    phone: u.phone ?? undefined,
    address1: u.address1 ?? undefined,
    city: u.city ?? undefined,
    postal_code: u.postal_code ?? undefined,
    country: u.country ?? undefined,
    status: u.status,
    created_time: u.created_time.toISOString(),
  };
}
