import { z } from 'zod';
import { staffReason } from './admin.ts';

/**
 * The travel rule on incoming transfers (Regulation (EU) 2023/1113, art. 16-17): a crypto deposit from another
 * provider without the originator's information is not credited; compliance releases it (credited) or returns it
 * in the console (`/api/v2/admin/travel_rule/deposits`, permission `travel_rule.review`).
 */
export const TRAVEL_RULE_INCOMING_ERRORS = {
  /** No such deposit (404). */
  depositNotFound: 'admin.travel_rule.deposit_not_found',
  /** The deposit is not held (any more): never held, decided already, or dropped by a reorg (422). */
  notHeld: 'admin.travel_rule.not_held',
} as const;

/** Where a chain deposit stands under the travel rule (see migration 0049). */
export const INCOMING_TRAVEL_RULE_STATUSES = [
  'not_required',
  'unchecked',
  'received',
  'awaiting',
  'held',
  'released',
  'returned',
] as const;
export type IncomingTravelRuleStatus = (typeof INCOMING_TRAVEL_RULE_STATUSES)[number];

/**
 * `GET /admin/travel_rule/deposits`: the held deposits (default), those still waiting, the decided ones, those
 * credited `unchecked` (the travel-rule service could not be asked: for compliance to follow up), or all.
 */
export const ADMIN_TRAVEL_RULE_FILTERS = [
  'held',
  'awaiting',
  'unchecked',
  'released',
  'returned',
  'all',
] as const;
/** The list's query: one of {@link ADMIN_TRAVEL_RULE_FILTERS}, `held` when none is given. */
export const adminTravelRuleDepositsQuery = z.object({
  state: z.enum(ADMIN_TRAVEL_RULE_FILTERS).default('held'),
});

/**
 * What a customer's deposit history says of a deposit under the travel rule (`message` of the deposit item), as
 * dotted codes the web app translates: waiting for the sender's information (`awaiting` or `held`: not credited
 * yet), or sent back to the sender (`returned`).
 */
export const DEPOSIT_TRAVEL_RULE_MESSAGES = {
  awaitingOriginator: 'account.deposit.travel_rule_awaiting_originator',
  returned: 'account.deposit.travel_rule_returned',
} as const;

/** `POST /admin/travel_rule/deposits/:id/release` and `/return`: why. */
export const decideTravelRuleDepositSchema = z.object({ reason: staffReason });
export type DecideTravelRuleDepositInput = z.infer<typeof decideTravelRuleDepositSchema>;

/** A deposit under the travel rule, as the console lists it. */
export const adminTravelRuleDepositResponse = z
  .object({
    id: z.number().int(),
    uid: z.string(),
    email: z.string(),
    currency: z.string(),
    blockchain_key: z.string(),
    amount: z.string(),
    txid: z.string(),
    /** Our address it arrived at, and the sender's when the chain names one. */
    address: z.string(),
    from_address: z.string().nullable(),
    /** The deposit's own state (`submitted` while held; `accepted`, `collected` once released; `rejected`). */
    state: z.string(),
    status: z.enum(INCOMING_TRAVEL_RULE_STATUSES),
    /** The sending provider (directory id and name), by the sender's address or the record it delivered. */
    provider_id: z.string().nullable(),
    provider_name: z.string().nullable(),
    /** The IVMS 101 record the sending provider delivered, incomplete (null when none came). */
    record: z.record(z.string(), z.unknown()).nullable(),
    decided_by: z.string().nullable(),
    decided_at: z.string().nullable(),
    reason: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'AdminTravelRuleDeposit' });
export type AdminTravelRuleDeposit = z.infer<typeof adminTravelRuleDepositResponse>;
