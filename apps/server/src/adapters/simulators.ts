import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import type { ChangeFeed } from '../db/change-feed.ts';
import type { Tx } from '../db/pool.ts';
import type { BankPort, CollectionAccount } from './bank/port.ts';
import type { DigestAlgorithm } from './kyc/signing.ts';

/**
 * The ports by which the product composes a provider's simulator (packages/provider-sims) into its one process.
 * The product knows these types only: the simulators implement them, and compose-providers.ts loads them by a
 * dynamic import when the configuration selects them, so a start with the real providers never loads their code.
 */

/** A simulator's outgoing side: its webhooks to the exchange, signed as its provider signs them. */
export interface SimulatorDelivery {
  /** Starts delivering (a background job). */
  start(): void;
  /** Stops, waiting for a pass under way. */
  stop(): Promise<void>;
  /** Sends what is queued now rather than at the next poll. */
  kick(): void;
  /** Resolves once no pass is under way. */
  idle(): Promise<void>;
}

/** A simulator composed into the one process: its HTTP API (a Fastify plugin) and its webhooks. */
export interface MountedSimulator<Credentials> {
  /** Where the one process mounts its HTTP API; a standalone simulator serves the same paths. */
  prefix: string;
  /** The Fastify plugin that speaks the provider's protocol. */
  routes(app: FastifyInstance): Promise<void>;
  /** Its webhooks to the exchange. */
  delivery: SimulatorDelivery;
  /** What its dashboard would hand out: the exchange's adapter and webhook check use them. */
  credentials: Credentials;
}

/** What every simulator is built from in the one process. */
export interface SimulatorOptions {
  db: pg.Pool;
  /** Announces work queued by any process (its webhooks wake up at once). */
  feed?: ChangeFeed;
  /** Where the exchange receives the simulator's webhooks; null while the server does not listen yet. */
  webhookUrl: () => string | null;
  log?: { warn(obj: unknown, msg?: string): void };
}

/** The KYC simulator's credentials: a Sumsub dashboard's app token, its secret and the webhook secret. */
export interface KycSimulatorCredentials {
  appToken: string;
  secretKey: string;
  webhookSecret: string;
}

/** An applicant as the reviewer's desk shows it. */
export interface DeskApplicant {
  id: string;
  level_name: string;
  review_status: 'init' | 'pending' | 'onHold' | 'completed';
  review_answer: 'GREEN' | 'RED' | null;
  reject_type: 'RETRY' | 'FINAL' | null;
  applicant_type: 'individual' | 'company';
}

/** An applicant waiting at the reviewer's desk (submitted, not decided), with its documents (not their images). */
export interface DeskWaitingApplicant {
  id: string;
  /** The exchange's user id (a uid, or `<uid>-kyb` for a business account's company). */
  external_user_id: string;
  review_status: 'pending' | 'onHold';
  applicant_type: 'individual' | 'company';
  /** When it last changed (submitted, or put on hold), ISO 8601. */
  submitted_at: string;
  documents: { id: number; type: string; side: string | null; mime_type: string }[];
}

/** What a KYC reviewer does to an applicant. */
export type KycDeskAction = 'approve' | 'reject' | 'retry' | 'hold' | 'reset';

/** Why a reviewer's action is refused. */
export type KycDeskRefusal = 'not_found' | 'final' | 'not_submitted' | 'already_reviewed';

/**
 * The reviewer's desk of the KYC simulator (Sumsub has its own dashboard): the console's review and the operator
 * command `kyc approve` decide through it; the decision reaches the exchange by the provider's signed webhook.
 */
export interface KycReviewDesk {
  /** The applicants waiting for a review (`pending` or `onHold`), the longest waiting first. */
  waiting(): Promise<DeskWaitingApplicant[]>;
  /** The newest applicant of an external user id (a uid, or `<uid>-kyb` for a company). */
  applicant(externalUserId: string): Promise<DeskApplicant | undefined>;
  /** Decides; `record` runs in the decision's transaction (the console's staff trail). */
  decide(
    applicantId: string,
    action: KycDeskAction,
    comment?: string | null,
    record?: (tx: Tx, before: DeskApplicant, after: DeskApplicant) => Promise<void>,
  ): Promise<DeskApplicant | KycDeskRefusal>;
  /** One document image of the applicants of `externalUserId` (the person or their company), opened. */
  document(externalUserId: string, id: number): Promise<{ mimeType: string; content: Buffer } | undefined>;
}

/** The KYC simulator in the one process. */
export interface KycSimulator extends MountedSimulator<KycSimulatorCredentials> {
  desk: KycReviewDesk;
}

/** How the KYC simulator is built. */
export interface KycSimulatorOptions extends SimulatorOptions {
  publicUrl: string;
  autoApproveSeconds: number;
  /** The `x-payload-digest-alg` of its webhooks. */
  digestAlgorithm: DigestAlgorithm;
}

/** The card issuer simulator's credentials: Marqeta's API and webhook credentials, and its data key. */
export interface CardSimulatorCredentials {
  apiUsername: string;
  apiPassword: string;
  webhookUsername: string;
  webhookPassword: string;
  webhookSecret: string;
  dataKey: string;
}

/** A card issuer reviewer's decision on a holder's identity check. */
export type CardDeskDecision = 'approve' | 'reject' | 'incomplete';

/** A decided identity check: its token and outcome. */
export interface CardDeskReview {
  token: string;
  result: { status: 'pending' | 'success' | 'failure' };
}

/** The card issuer simulator's reviewer: the console's holder review and `card review` decide through it. */
export interface CardReviewDesk {
  /** Decides the holder's pending check (null: none pending); `record` runs in the decision's transaction. */
  decide(
    userToken: string,
    decision: CardDeskDecision,
    reason?: string,
    record?: (tx: Tx, decided: CardDeskReview) => Promise<void>,
  ): Promise<CardDeskReview | null>;
  /** The holder's latest check at the issuer, for `card status`. */
  latest(userToken: string): Promise<Record<string, unknown> | undefined>;
}

/** A card network outcome: the trade, settled or declined and why. */
export interface CardNetworkOutcome {
  trade_id: string;
  status: 'settled' | 'declined' | 'reversed';
  reason?: string;
  /** What the card paid or got back, in USDT. */
  usdt?: string;
}

/** The simulated card network (the dev card terminal): purchases and refunds on the simulator's cards. */
export interface CardNetworkDesk {
  /** A purchase of `eurCents` on a card, converted at `eurPerUsdt`, counted on `now`'s day. */
  purchase(
    input: { cardToken: string; eurCents: bigint; merchant: string; eurPerUsdt: string },
    now: Date,
  ): Promise<CardNetworkOutcome>;
  /** The card a purchase was made with. */
  purchaseCard(tradeId: string): Promise<string | undefined>;
  /** The merchant refunds a purchase (all that is left, or `eurCents` of it). */
  refund(tradeId: string, eurCents?: bigint): Promise<CardNetworkOutcome | 'unknown_trade' | 'too_much'>;
}

/** The card issuer simulator in the one process. */
export interface CardSimulator extends MountedSimulator<CardSimulatorCredentials> {
  /** Marqeta's API is under `/v3` of the prefix. */
  api: string;
  desk: CardReviewDesk;
  network: CardNetworkDesk;
}

/** How the card issuer simulator is built. */
export interface CardSimulatorOptions extends SimulatorOptions {
  autoApproveSeconds: number;
  shipSeconds: number;
  topupSettleSeconds: number;
  eurPerUsdt: string;
}

/** The bank simulator's credentials: its own API's Basic credentials and its notification secret. */
export interface BankSimulatorCredentials {
  apiUsername: string;
  apiPassword: string;
  webhookSecret: string;
}

/** The bank simulator in the one process: the collection account's bank and the payouts' bank. */
export interface BankSimulator extends MountedSimulator<BankSimulatorCredentials> {
  payouts: BankPort;
}

/** How the bank simulator is built. */
export interface BankSimulatorOptions extends SimulatorOptions {
  collection: CollectionAccount;
}

/** How a simulated travel-rule provider is set to answer the messages of our withdrawals. */
export type TravelRuleSimBehaviour = 'accept' | 'refuse' | 'timeout';

/** What the simulated provider answered a message. */
export type TravelRuleSimAnswer = 'accepted' | 'refused' | 'timeout';

/** Everything the travel-rule simulator was told, and the messages it received per provider and answer. */
export interface TravelRuleNetworkContents {
  addresses: { blockchain_key: string; address: string; provider_id: string }[];
  behaviours: { provider_id: string; behaviour: TravelRuleSimBehaviour }[];
  incoming: {
    blockchain_key: string;
    txid: string;
    address: string;
    provider_id: string;
    payload: unknown;
  }[];
  messages: { provider_id: string; answer: TravelRuleSimAnswer; count: number }[];
}

/** One incoming transfer, as the travel-rule network keys it: the network, the txid and our address. */
export interface TravelRuleTransferKey {
  network: string;
  txid: string;
  address: string;
}

/**
 * The travel-rule network's operator desk (a real network has its own members and their records): the operator
 * command `travel-rule` tells the simulator through it whose a sending address is, how a provider answers, and
 * which originator records providers delivered. The exchange learns of them only over the travel-rule port.
 */
export interface TravelRuleNetworkDesk {
  /** A sending address on a network is held by a provider (replacing an earlier attribution of it). */
  attribute(entry: { network: string; address: string; providerId: string }): Promise<void>;
  /** The address is no longer known as a provider's; false when it was not attributed. */
  forgetAddress(network: string, address: string): Promise<boolean>;
  /** How a provider answers messages (`accept` is the default). */
  behave(providerId: string, behaviour: TravelRuleSimBehaviour): Promise<void>;
  /** The originator record a provider delivered for an incoming transfer (replacing an earlier one). */
  recordIncoming(entry: TravelRuleTransferKey & { providerId: string; payload: unknown }): Promise<void>;
  /** Forgets the record of an incoming transfer; false when there was none. */
  forgetIncoming(transfer: TravelRuleTransferKey): Promise<boolean>;
  /** Everything it was told, for `travel-rule list`. */
  contents(): Promise<TravelRuleNetworkContents>;
}

/** The travel-rule simulator needs no credentials: the protocol's client sends none. */
export type TravelRuleSimulatorCredentials = Record<string, never>;

/** The simulator of the travel-rule network (the counterparty providers) in the one process. */
export interface TravelRuleSimulator extends MountedSimulator<TravelRuleSimulatorCredentials> {
  desk: TravelRuleNetworkDesk;
}

/** How the travel-rule simulator is built: it sends no webhooks, so it needs no URL of the exchange. */
export interface TravelRuleSimulatorOptions {
  db: pg.Pool;
  /** How long a provider set to `timeout` keeps a request before dropping it (longer than the client waits). */
  holdMs: number;
}

/**
 * The SMS simulator's credentials, as a Twilio console hands them out: the account SID and auth token (HTTP Basic
 * on its API), the account's sending number and a Messaging Service SID (either sends).
 */
export interface SmsSimulatorCredentials {
  accountSid: string;
  authToken: string;
  from: string;
  messagingServiceSid: string;
}

/** The SMS simulator in the one process: Twilio's Messages API and the developer's phone inbox (`GET /inbox`). */
export type SmsSimulator = MountedSimulator<SmsSimulatorCredentials>;

/**
 * How the SMS simulator is built: its webhooks are each message's status callbacks, posted to the URL the message
 * was sent with (its StatusCallback), so it is given none of its own.
 */
export interface SmsSimulatorOptions {
  db: pg.Pool;
  /** Announces callbacks queued by any process (they are posted as soon as they fall due). */
  feed?: ChangeFeed;
  /** How often due callbacks are looked for while no feed is heard (ms, default 1000). */
  pollMs?: number;
  log?: { warn(obj: unknown, msg?: string): void };
  /** How many API requests an account may make per second before it is answered 429 (code 20429). */
  requestsPerSecond?: number;
}

/** The mail simulator's credentials: its SMTP login (AUTH PLAIN/LOGIN), which also opens its mailbox (HTTP Basic). */
export interface MailSimulatorCredentials {
  user: string;
  password: string;
}

/**
 * The mail simulator in the one process: a mail server the exchange's mail sender reaches over SMTP, as it would
 * reach a real one (SMTP_URL), and the developer's mailbox over HTTP (`GET {prefix}/mailbox`), which shows each
 * message's text once. It sends no webhooks.
 */
export interface MailSimulator {
  /** Where the one process mounts its mailbox; a standalone simulator serves the same path. */
  prefix: string;
  /** The Fastify plugin of its mailbox. */
  routes(app: FastifyInstance): Promise<void>;
  credentials: MailSimulatorCredentials;
  /** Starts its SMTP server on `host:port` (0: any free port); resolves with the port. */
  listen(host: string, port: number): Promise<number>;
  /** Stops its SMTP server (a client's open connection is ended after half a second). */
  close(): Promise<void>;
}

/** How the mail simulator is built. */
export interface MailSimulatorOptions {
  db: pg.Pool;
}
