import type pg from 'pg';
import type { CardDeskDecision, CardReviewDesk } from '../../adapters/simulators.ts';
import { findUserByEmail } from '../identity/users-repository.ts';
import { holderDocuments } from './holder-documents-repository.ts';
import { everyCard, findHolder } from './repository.ts';

/** The card operator commands, with their usage lines for the command line's help. */
export const CARD_USAGE = `  card review approve <email>
                            the card issuer simulator's reviewer: the holder may order cards (emailed)
  card review reject <email> [reason]
                            the holder's application is declined (rejection)
  card review incomplete <email> [reason]
                            the holder must upload documents again (incomplete_information)
  card status <email>       the card holder, document images (types and sizes) and cards (masked numbers)`;

const DECISIONS: Record<string, CardDeskDecision> = {
  approve: 'approve',
  reject: 'reject',
  incomplete: 'incomplete',
};

/**
 * `npm run cli -- card review approve|reject|incomplete <email> [reason]`: the simulator's reviewer (its desk).
 * The decision is queued as a `kycs` webhook, which the running app delivers, signed, to itself as Marqeta would.
 */
export async function cardReview(
  db: pg.Pool,
  desk: CardReviewDesk,
  decision: string,
  email: string,
  reason?: string,
): Promise<{ ok: boolean; message: string }> {
  const action = DECISIONS[decision];
  if (!action) return { ok: false, message: `unknown decision: ${decision} (approve, reject, incomplete)` };
  const user = await findUserByEmail(db, email);
  if (!user) return { ok: false, message: `no user with email ${email}` };
  const holder = await findHolder(db, user.id);
  if (!holder) return { ok: false, message: `${email} has not applied for a card` };
  const kyc = await desk.decide(holder.issuer_user_token, action, reason?.slice(0, 500));
  if (!kyc)
    return { ok: false, message: `${email} has no application waiting for review (${holder.status})` };
  return {
    ok: true,
    message: `${email}: review ${kyc.token} is ${kyc.result.status}; the webhook is queued for the running app`,
  };
}

/**
 * `npm run cli -- card status <email>`: what the exchange and the simulator (its desk, when it is the issuer)
 * know; never an image or a number.
 */
export async function cardStatus(
  db: pg.Pool,
  desk: CardReviewDesk | undefined,
  email: string,
): Promise<{ ok: boolean; message: string }> {
  const user = await findUserByEmail(db, email);
  if (!user) return { ok: false, message: `no user with email ${email}` };
  const holder = await findHolder(db, user.id);
  const documents = holder ? await holderDocuments(db, holder.id) : [];
  const cards = await everyCard(db, user.id);
  const review = holder && desk ? await desk.latest(holder.issuer_user_token) : undefined;
  const status = {
    email: user.email,
    level: user.level,
    holder: holder
      ? {
          id: holder.id,
          issuer_user_token: holder.issuer_user_token,
          name: `${holder.first_name} ${holder.last_name}`.trim(),
          country: holder.country,
          id_type: holder.id_type,
          status: holder.status,
          description: holder.description,
          submitted_at: holder.submitted_at,
          reviewed_at: holder.reviewed_at,
        }
      : null,
    documents: documents.map((d) => ({
      doc_type: d.doc_type,
      mime_type: d.mime_type,
      size_bytes: d.size_bytes,
      updated_at: d.updated_at,
    })),
    simulator_review: review ?? null,
    cards: cards.map((c) => ({
      id: Number(c.id),
      number: c.first4 ? `${c.first4} **** **** ${c.last4}` : '(ordering)',
      status: c.status,
      next_charge_on: c.next_charge_on,
      fee_suspended: c.fee_suspended,
      fulfillment: c.fulfillment,
      expiry: c.expiry ? `${c.expiry.slice(0, 2)}/${c.expiry.slice(2)}` : null,
      replaces: c.replaces_card_id ? Number(c.replaces_card_id) : null,
      replaced_by: c.replaced_by ? Number(c.replaced_by) : null,
    })),
  };
  return { ok: true, message: JSON.stringify(status, null, 2) };
}

/** The card network commands (the simulator's: `cardNetwork` in packages/provider-sims), with their usage lines. */
export const CARD_NETWORK_USAGE = `  card spend <card_number> <eur> [merchant]
                            the simulated card network: a purchase (authorised, then cleared) in EUR
  card atm <card_number> <eur>
                            an ATM withdrawal in EUR (10.00 to 1000.00, 2000.00 a day)
  card fee <card_number> <eur> [reason]
                            the issuer charges the card a fee (type 500) in EUR
  card refund <trade_id> [eur]
                            the merchant refunds a purchase (all of it, or eur of it)
  card reverse <trade_id> [eur]
                            the authorisation is reversed (all that is left of it, or eur of it)`;
