import type { IvmsPayload } from '../../modules/compliance/travel-rule/ivms.ts';

/**
 * The travel-rule protocol (TRP, TRUST, Notabene-style networks): our IVMS 101 message to the provider that holds
 * the beneficiary's address, and its answer; and, for a deposit, the originator record the sending provider
 * delivered and whose the sender's address is. The default is the simulator of the counterparty providers
 * (packages/provider-sims/src/travel-rule), reached over HTTP like a real service (compose-providers.ts).
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

/** A deposit to one of our addresses, as the travel-rule network is asked about it. */
export interface IncomingTransfer {
  /** Our `blockchain_key`. */
  network: string;
  txid: string;
  /** Our address it arrived at. */
  address: string;
  /** The sender's address when the chain names one (account chains); null on Bitcoin. */
  from: string | null;
  asset: string;
  amount: string;
}

/**
 * What the network knows of an incoming transfer: the originator record the sending provider delivered for it
 * (keyed by network, txid and our address) with that provider's directory id; or none, with the provider the
 * sender's address is attributed to (null: not known as any provider's, e.g. a self-hosted wallet); or no usable
 * answer.
 */
export type IncomingAnswer =
  | { outcome: 'record'; providerId: string | null; payload: IvmsPayload }
  | { outcome: 'none'; providerId: string | null }
  | { outcome: 'unreachable'; detail: string };

export interface TravelRulePort {
  /** Sends the message; never throws: a failure to deliver is an `unreachable` answer. */
  send(transfer: TravelRuleTransfer): Promise<TravelRuleAnswer>;
  /** Asks for the originator record and the sender's attribution of a deposit; never throws. */
  incoming(transfer: IncomingTransfer): Promise<IncomingAnswer>;
}
