import type { IvmsPayload } from '../../modules/compliance/travel-rule/ivms.ts';

/**
 * The travel-rule protocol (TRP, TRUST, Notabene-style networks): our IVMS 101 message to the provider that holds
 * the beneficiary's address, and its answer. The built-in simulator of a counterparty provider is the default.
 */

/** One transfer's message to the beneficiary's provider. */
export interface TravelRuleTransfer {
  /** Our reference of the withdrawal, unique per transfer (the counterparty deduplicates on it). */
  reference: string;
  /** The provider's id in our directory. */
  providerId: string;
  asset: string;
  network: string;
  amount: string;
  address: string;
  payload: IvmsPayload;
}

/** What the counterparty answered: accepted (its reference), refused (its reason), or no usable answer. */
export type TravelRuleAnswer =
  | { outcome: 'accepted'; reference: string }
  | { outcome: 'refused'; reason: string }
  | { outcome: 'unreachable'; detail: string };

export interface TravelRulePort {
  /** Sends the message; never throws: a failure to deliver is an `unreachable` answer. */
  send(transfer: TravelRuleTransfer): Promise<TravelRuleAnswer>;
}
