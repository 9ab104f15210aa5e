import type { FastifyRequest } from 'fastify';
import type { NatsConnection } from 'nats';
import type pg from 'pg';
import type { CaptchaPort } from './adapters/captcha/port.ts';
import type { CardIssuer } from './adapters/card-issuer/port.ts';
import type { MailPort } from './adapters/mail/port.ts';
import type { OutboxRetention } from './adapters/mail/retention.ts';
import type { MailInbox } from './adapters/mail/simulator-mailbox.ts';
import type {
  BankSimulator,
  CardSimulator,
  KycSimulator,
  MailSimulator,
  SmsSimulator,
  TravelRuleSimulator,
} from './adapters/simulators.ts';
import type { SmsInbox, SmsPort, SmsStatusWebhook } from './adapters/sms/port.ts';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { Core } from './core/index.ts';
import type { RequestUser } from './http/auth.ts';
import type { BodyKey } from './http/body-encryption.ts';
import type { DiskGuard } from './http/disk-guard.ts';
import type { RecordedResponse } from './http/response-recorder.ts';
import type { ModuleLogger } from './log.ts';
import type { ApiKeyAuthenticator } from './modules/api-keys/hmac.ts';
import type { BankDepositDeps } from './modules/bank-deposits/service.ts';
import type { Cards } from './modules/card/index.ts';
import type { ServerKeys } from './modules/identity/crypto.ts';
import type { JwtIssuer } from './modules/identity/jwt.ts';
import type { SessionStore } from './modules/identity/sessions.ts';
import type { UserDirectory } from './modules/identity/user-directory.ts';
import type { KycService } from './modules/kyc/service.ts';
import type { MarketData } from './modules/market-data/service.ts';
import type { StreamPublisher } from './modules/ranger/forwarded.ts';
import type { StreamHub } from './modules/ranger/hub.ts';
import type { Wallet } from './modules/wallet/index.ts';
import type { CountryLookup } from './net/geo-country.ts';

/** Everything the HTTP edge needs; built by the composition root (compose.ts) or by tests.
 *
 * Each module's routes take only what they use (the module's `deps.ts`), which this set has among its members:
 * so no module imports this file or app.ts, and the app's wiring is not an import circle. */
export interface AppDeps {
  config: Config;
  db: pg.Pool;
  /** Where time comes from (clock.ts): a TestClock with NODE_ENV=test, which its test-only control moves. */
  clock: Clock;
  mail: MailPort;
  sms: SmsPort;
  captcha: CaptchaPort;
  keys: ServerKeys;
  sessions: SessionStore;
  /** Users as requests see them, cached while the change feed is heard. */
  users: UserDirectory;
  apiKeys: ApiKeyAuthenticator;
  /** Barong's session JWTs (RS256): issued by `/api/v2/barong/auth/*`, taken by the Ranger gateway. */
  jwt: JwtIssuer;
  bodyKey: BodyKey;
  /** The exchange core: the only way balances and orders change. */
  core: Core;
  /** Committed order books, tickers, candles and the streams built from them. */
  marketData: MarketData;
  hub: StreamHub;
  /**
   * Publishes stream messages made by a request (e.g. `favmarket`): the hub itself, or in a split deployment the
   * NATS forwarder that brings them to every ws process.
   */
  streams: StreamPublisher;
  /** Deposits, withdrawals and the chains behind them. */
  wallet: Wallet;
  /** Identity verification through the configured provider. */
  kyc: KycService;
  /** The Sumsub-compatible simulator (packages/provider-sims), when it is the provider (the default). */
  kycSimulator?: KycSimulator;
  /** The card issuer (Marqeta, or by default the built-in simulator reached over HTTP). */
  cardIssuer: CardIssuer;
  /** The card suite: holders, cards, their fees and the issuer's webhooks. */
  cards: Cards;
  /** The Marqeta-shaped issuer simulator (packages/provider-sims), when it is the issuer (the default). */
  cardSimulator?: CardSimulator;
  /** EUR deposits by SEPA transfer: the collection account, the bank's webhook secret, crediting. */
  bankDeposits: BankDepositDeps;
  /** The bank simulator (packages/provider-sims; incoming transfers, their notifications, payouts), by default. */
  bankSimulator?: BankSimulator;
  /** The travel-rule network's simulator (packages/provider-sims), with TRAVEL_RULE_PROTOCOL=simulator (the default). */
  travelRuleSimulator?: TravelRuleSimulator;
  /** The SMS simulator (packages/provider-sims, Twilio's API), with SMS_PROVIDER=simulator. */
  smsSimulator?: SmsSimulator;
  /** The SMS simulator's phone inbox, which the dev outbox reads codes from (DEV_TOOLS with the simulator). */
  smsInbox?: SmsInbox;
  /** The mail simulator (packages/provider-sims: an SMTP server and a mailbox), with MAIL_PROVIDER=simulator. */
  mailSimulator?: MailSimulator;
  /** The mail simulator's mailbox, which the dev outbox reads delivered mail from (DEV_TOOLS with the simulator). */
  mailInbox?: MailInbox;
  /** Delivers the mail queued so far (the sender in this process), before the dev outbox reads the mailbox. */
  flushMail?: () => Promise<void>;
  /** How the SMS provider's status callbacks are checked; absent when texts are sent without a StatusCallback. */
  smsStatus?: SmsStatusWebhook;
  /** Where the request log goes (tests read it); stdout when absent. */
  logStream?: { write(line: string): void };
  /** The NATS connection of a split deployment (its state is a metric). */
  nats?: NatsConnection;
  /** The process's logger (see log.ts): the HTTP requests log through its `http` child. */
  logger: ModuleLogger;
  supportEmail: string;
  /** The country of a login's address (GEOIP_COUNTRY_DB), for the new-country notice; none without a database. */
  geoCountry: CountryLookup;
  /** Deletes records of sent messages after MAIL_RETENTION_DAYS (a background job). */
  outboxRetention: OutboxRetention;
  /** Refuses new orders and withdrawals while the data folder's disk is nearly full. */
  diskGuard: DiskGuard;
  /** Resolves the session's user for routes that work with or without one (e.g. contact). */
  currentUser(request: FastifyRequest): Promise<RequestUser | null>;
  /** Tests only: sees every answer as sent (the contract tests check them against the API documents). */
  responseRecorder?: (answer: RecordedResponse) => void;
}
