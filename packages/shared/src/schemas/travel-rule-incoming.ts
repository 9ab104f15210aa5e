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
  /**
   * Return refused: the chain does not name the sender (Bitcoin: a transaction's inputs have no single sender),
   * so the product cannot send it back; the operator returns it outside the product, or releases it (422).
   */
  senderUnknown: 'admin.travel_rule.sender_unknown',
  /** Return refused: the network's withdrawal fee is as large as the deposit, nothing would reach the sender (422). */
  returnBelowFee: 'admin.travel_rule.return_below_fee',
  /** Return refused: the deposit's network has no withdrawal rules for its currency any more (422). */
  networkUnavailable: 'admin.travel_rule.network_unavailable',
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
    /**
     * A returned deposit's way back to the sender: the withdrawal the hot wallet pays (its id, state as any
     * withdrawal's, the amount with the network fee kept, the sender's address, the transaction once sent).
     */
    return: z
      .object({
        withdrawal_id: z.number().int(),
        state: z.string(),
        amount: z.string(),
        fee: z.string(),
        to_address: z.string(),
        txid: z.string().nullable(),
        error: z.string().nullable(),
      })
      .nullable(),
    decided_by: z.string().nullable(),
    decided_at: z.string().nullable(),
    reason: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'AdminTravelRuleDeposit' });
export type AdminTravelRuleDeposit = z.infer<typeof adminTravelRuleDepositResponse>;
