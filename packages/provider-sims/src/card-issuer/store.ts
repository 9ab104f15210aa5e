import { createHmac, randomBytes, randomInt } from 'node:crypto';
import type {
  IssuerCard,
  IssuerCardState,
  IssuerFulfillment,
  IssuerKyc,
} from '@exchange/server/provider-kit';
import { sealBytes, type Tx, withTransaction } from '@exchange/server/provider-kit';
import type pg from 'pg';
import { expiration, generatePan, seal, unseal } from './keys.ts';

export { type CardSimulatorCredentials, loadCardSimulatorCredentials } from './keys.ts';

type Db = pg.Pool | Tx;

const simToken = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

export interface SimCardRow {
  token: string;
  user_token: string;
  card_product_token: string;
  pan_enc: string;
  last_four: string;
  expiration: string;
  pin_enc: string;
  state: IssuerCardState;
  fulfillment_status: IssuerFulfillment;
  created_time: Date;
}

/** A card as `GET /cards/{token}` shows it; the number only with `show_pan`. */
export function cardView(key: string, c: SimCardRow, showPan: boolean): IssuerCard {
  return {
    token: c.token,
    user_token: c.user_token,
    card_product_token: c.card_product_token,
    ...(showPan ? { pan: unseal(key, c.pan_enc) } : {}),
    last_four: c.last_four,
    expiration: c.expiration,
    state: c.state,
    fulfillment_status: c.fulfillment_status,
    created_time: c.created_time.toISOString(),
  };
}

/** Queues one webhook for the exchange (Marqeta's event notification body); the delivery loop signs and sends it. */
export async function enqueueWebhook(db: Db, body: Record<string, unknown[]>): Promise<void> {
  await db.query('insert into cardsim_webhooks (payload) values ($1)', [JSON.stringify(body)]);
}

export async function findSimUser(db: Db, token: string) {
  return (await db.query('select * from cardsim_users where token = $1', [token])).rows[0];
}

/**
 * Creates a user; false when the token is taken (the API answers 409, as Marqeta does). The identifications
 * (document numbers) are kept sealed with the simulator's data key.
 */
export async function createSimUser(db: Db, key: string, input: Record<string, unknown>): Promise<boolean> {
  const ids = Array.isArray(input.identifications) ? input.identifications : [];
  const text = (k: string) => (typeof input[k] === 'string' ? (input[k] as string) : null);
  const inserted = await db.query(
    `insert into cardsim_users (token, first_name, last_name, email, phone, address1, city, postal_code, country,
       identifications_sealed) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) on conflict (token) do nothing`,
    [
      text('token'),
      text('first_name'),
      text('last_name'),
      text('email'),
      text('phone'),
      text('address1'),
      text('city'),
      text('postal_code'),
      text('country'),
      seal(key, JSON.stringify(ids)),
    ],
  );
  return inserted.rowCount === 1;
}

/**
 * Stores (or replaces) a document image of a user, sealed with the simulator's data key: the simulator's extension
 * for its reviewer.
 */
export async function putSimDocument(
  db: Db,
  key: string,
  userToken: string,
  doc: { docType: string; mimeType: string; content: Buffer },
): Promise<string> {
  const row = (
    await db.query(
      `insert into cardsim_documents (user_token, doc_type, mime_type, size_bytes, content_sealed)
       values ($1, $2, $3, $4, $5)
       on conflict (user_token, doc_type) do update set mime_type = excluded.mime_type, size_bytes = excluded.size_bytes,
         content = null, content_sealed = excluded.content_sealed, created_time = now()
       returning id`,
      [
        userToken,
        doc.docType,
        doc.mimeType,
        doc.content.length,
        sealBytes(Buffer.from(key, 'base64url'), doc.content),
      ],
    )
  ).rows[0];
  return `doc_${row.id}`;
}

function kycView(k: {
  token: string;
  user_token: string;
  status: IssuerKyc['result']['status'];
  codes: { code: string; message?: string }[];
  created_time: Date;
}): IssuerKyc {
  return {
    token: k.token,
    user_token: k.user_token,
    result: { status: k.status, ...(k.codes.length > 0 ? { codes: k.codes } : {}) },
    created_time: k.created_time.toISOString(),
  };
}

/** `POST /kyc`: a pending check for the reviewer (or the demo auto-approval after `autoApproveSeconds`). */
export async function createSimKyc(
  db: Db,
  input: { token: string; userToken: string },
  autoApproveSeconds: number,
): Promise<IssuerKyc> {
  const row = (
    await db.query(
      `insert into cardsim_kyc (token, user_token, status, auto_review_at)
       values ($1, $2, 'pending', case when $3::int > 0 then now() + make_interval(secs => $3::int) end)
       on conflict (token) do update set last_modified_time = cardsim_kyc.last_modified_time
       returning *`,
      [input.token, input.userToken, autoApproveSeconds],
    )
  ).rows[0];
  return kycView(row);
}

export type ReviewDecision = 'approve' | 'reject' | 'incomplete';

/**
 * The reviewer's decision on the user's pending check: success, or failure with a code and the reason given;
 * queues the `kycs` webhook. Null when the user has no pending check. `record`, when given, runs in the same
 * transaction once the decision is made (the console's staff trail): should it throw, nothing of it remains.
 */
export async function decideSimKyc(
  db: pg.Pool,
  userToken: string,
  decision: ReviewDecision,
  reason?: string,
  record?: (tx: Tx, kyc: IssuerKyc) => Promise<void>,
): Promise<IssuerKyc | null> {
  return withTransaction(db, async (tx) => {
    const pending = (
      await tx.query(
        `select * from cardsim_kyc where user_token = $1 and status = 'pending'
         order by created_time desc limit 1 for update`,
        [userToken],
      )
    ).rows[0];
    if (!pending) return null;
    const codes =
      decision === 'approve'
        ? []
        : [
            {
              code: decision === 'incomplete' ? 'INCOMPLETE_INFORMATION' : 'REJECTED',
              message:
                reason ??
                (decision === 'incomplete'
                  ? 'The documents are incomplete or unreadable.'
                  : 'The application was declined.'),
            },
          ];
    const row = (
      await tx.query(
        `update cardsim_kyc set status = $2, codes = $3, auto_review_at = null, last_modified_time = now()
         where token = $1 returning *`,
        [pending.token, decision === 'approve' ? 'success' : 'failure', JSON.stringify(codes)],
      )
    ).rows[0];
    await tx.query(`update cardsim_users set status = $2, last_modified_time = now() where token = $1`, [
      userToken,
      decision === 'approve' ? 'ACTIVE' : 'UNVERIFIED',
    ]);
    const kyc = kycView(row);
    await enqueueWebhook(tx, { kycs: [{ ...kyc, last_modified_time: new Date().toISOString() }] });
    await record?.(tx, kyc);
    return kyc;
  });
}

/** Approves the checks whose demo auto-approval time has come. */
export async function autoApproveDue(db: pg.Pool): Promise<void> {
  const due = await db.query(
    `select distinct user_token from cardsim_kyc where status = 'pending' and auto_review_at <= now() limit 20`,
  );
  for (const row of due.rows) await decideSimKyc(db, row.user_token, 'approve');
}

/**
 * `POST /cards`: a new card with a fresh number, expiry three years ahead and a random 4-digit PIN, ordered for
 * shipping (shipped after `shipSeconds`, delivered as long again later). The same token again is the same card.
 */
export async function createSimCard(
  db: pg.Pool,
  key: string,
  input: {
    token: string;
    userToken: string;
    cardProductToken: string;
    shipping: unknown;
    newPanFrom?: string;
  },
  shipSeconds: number,
): Promise<SimCardRow | 'exists_for_other_user'> {
  for (let attempt = 0; ; attempt++) {
    const pan = generatePan();
    try {
      const row = (
        await db.query(
          `insert into cardsim_cards (token, user_token, card_product_token, pan_enc, pan_hash, last_four, expiration,
             pin_enc, state, fulfillment_status, shipping, new_pan_from, ship_at, deliver_at)
           values ($1, $2, $3, $4, $5, $6, $7, $8, 'UNACTIVATED', 'ORDERED', $9, $10,
             now() + make_interval(secs => $11::int), now() + make_interval(secs => 2 * $11::int))
           on conflict (token) do nothing returning *`,
          [
            input.token,
            input.userToken,
            input.cardProductToken,
            seal(key, pan),
            createHmac('sha256', Buffer.from(key, 'base64url')).update(pan).digest('hex'),
            pan.slice(-4),
            expiration(),
            seal(key, String(randomInt(10_000)).padStart(4, '0')),
            JSON.stringify(input.shipping ?? {}),
            input.newPanFrom ?? null,
            shipSeconds,
          ],
        )
      ).rows[0] as SimCardRow | undefined;
      if (row) return row;
      const existing = await findSimCard(db, input.token);
      if (!existing || existing.user_token !== input.userToken) return 'exists_for_other_user';
      return existing;
    } catch (err) {
      // A number already issued (unique hash): draw another.
      if ((err as { code?: string }).code === '23505' && attempt < 5) continue;
      throw err;
    }
  }
}

export async function findSimCard(db: Db, token: string): Promise<SimCardRow | undefined> {
  return (await db.query('select * from cardsim_cards where token = $1', [token])).rows[0];
}

/** Which states a card may move to (Marqeta: a terminated card stays terminated). */
const ALLOWED: Record<IssuerCardState, IssuerCardState[]> = {
  UNACTIVATED: ['UNACTIVATED', 'ACTIVE', 'SUSPENDED', 'TERMINATED'],
  ACTIVE: ['ACTIVE', 'SUSPENDED', 'TERMINATED'],
  SUSPENDED: ['SUSPENDED', 'ACTIVE', 'TERMINATED'],
  TERMINATED: ['TERMINATED'],
};

const STATE_EVENT: Record<IssuerCardState, string> = {
  UNACTIVATED: 'state.unactivated',
  ACTIVE: 'state.activated',
  SUSPENDED: 'state.suspended',
  TERMINATED: 'state.terminated',
};

/** Records a transition (state or fulfilment) of a card and queues its `cardtransitions` webhook. */
async function recordTransition(
  tx: Tx,
  card: SimCardRow,
  type: string,
  channel: string,
  reasonCode: string | null,
) {
  const transition = {
    token: simToken('ct'),
    card_token: card.token,
    user_token: card.user_token,
    type,
    state: card.state,
    fulfillment_status: card.fulfillment_status,
    channel,
    ...(reasonCode ? { reason_code: reasonCode } : {}),
    created_time: new Date().toISOString(),
  };
  await tx.query(
    `insert into cardsim_transitions (token, card_token, type, state, fulfillment_status, channel, reason_code)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [transition.token, card.token, type, card.state, card.fulfillment_status, channel, reasonCode],
  );
  await enqueueWebhook(tx, { cardtransitions: [transition] });
  return transition;
}

/** `POST /cardtransitions`: moves a card's state, or says why not. */
export async function transitionSimCard(
  db: pg.Pool,
  input: { cardToken: string; state: IssuerCardState; channel: string; reasonCode: string | null },
) {
  return withTransaction(db, async (tx) => {
    const card: SimCardRow | undefined = (
      await tx.query('select * from cardsim_cards where token = $1 for update', [input.cardToken])
    ).rows[0];
    if (!card) return 'not_found' as const;
    if (!ALLOWED[card.state].includes(input.state)) return 'invalid_transition' as const;
    const updated: SimCardRow = (
      await tx.query(
        'update cardsim_cards set state = $2, last_modified_time = now() where token = $1 returning *',
        [card.token, input.state],
      )
    ).rows[0];
    return recordTransition(tx, updated, STATE_EVENT[input.state], input.channel, input.reasonCode);
  });
}

/** Ships the ordered cards whose time has come, and delivers the shipped ones; each with its webhook. */
export async function advanceFulfilment(db: pg.Pool): Promise<void> {
  const due = await db.query(
    `select token from cardsim_cards
     where (fulfillment_status = 'ORDERED' and ship_at <= now()) or (fulfillment_status = 'SHIPPED' and deliver_at <= now())
     order by created_time limit 50`,
  );
  for (const { token } of due.rows) {
    await withTransaction(db, async (tx) => {
      const card: SimCardRow | undefined = (
        await tx.query('select * from cardsim_cards where token = $1 for update', [token])
      ).rows[0];
      if (!card) return;
      const next =
        card.fulfillment_status === 'ORDERED'
          ? 'SHIPPED'
          : card.fulfillment_status === 'SHIPPED'
            ? 'DELIVERED'
            : null;
      if (!next) return;
      const updated: SimCardRow = (
        await tx.query(
          `update cardsim_cards set fulfillment_status = $2, last_modified_time = now() where token = $1 returning *`,
          [token, next],
        )
      ).rows[0];
      await recordTransition(tx, updated, `fulfillment.${next.toLowerCase()}`, 'SYSTEM', null);
    });
  }
}

/** `POST /pins/controltoken`: a single-use token to reveal the card's PIN, valid five minutes. */
export async function createPinControlToken(db: Db, cardToken: string): Promise<string> {
  const token = simToken('pct');
  // Only the newest token of a card is valid.
  await db.query('delete from cardsim_pin_tokens where card_token = $1', [cardToken]);
  await db.query(
    `insert into cardsim_pin_tokens (token, card_token, expires_at) values ($1, $2, now() + interval '5 minutes')`,
    [token, cardToken],
  );
  return token;
}

/** `POST /pins/reveal`: redeems a control token; the PIN, or why not (an ACTIVE card only). */
export async function revealSimPin(
  db: pg.Pool,
  key: string,
  controlToken: string,
): Promise<{ pin: string } | 'invalid_token' | 'card_not_active'> {
  const row = (
    await db.query(
      `update cardsim_pin_tokens set used_at = now() where token = $1 and used_at is null and expires_at > now()
       returning card_token`,
      [controlToken],
    )
  ).rows[0];
  if (!row) return 'invalid_token';
  const card = await findSimCard(db, row.card_token);
  if (card?.state !== 'ACTIVE') return 'card_not_active';
  return { pin: unseal(key, card.pin_enc) };
}
