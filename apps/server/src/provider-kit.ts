/**
 * What the providers' simulators (packages/provider-sims) may use of the server, and nothing more: the providers'
 * wire protocols (the signing that the real adapters and the simulators share: one implementation, two sides), the
 * wire shapes of the ports, the simulator ports the product composes them by (adapters/simulators.ts), and a few
 * plumbing pieces (the migration runner their own schema uses, the due-work runner behind their webhook outboxes, multipart reading, transactions, sealing). Published as
 * `@exchange/server/provider-kit` (apps/server/package.json `exports`): the simulators import the server through
 * this file only, and the product never imports the simulators back, except in its one composition point
 * (compose-providers.ts, by a dynamic import: see ARCHITECTURE.md, "Simulators").
 */

export type {
  BankPort,
  CollectionAccount,
  CreditNotification,
  PayoutRequest,
  PayoutResult,
} from './adapters/bank/port.ts';
export { validIban } from './adapters/bank/port.ts';
export { bankWebhookHeaders } from './adapters/bank/signing.ts';
export type {
  IssuerCard,
  IssuerCardState,
  IssuerFulfillment,
  IssuerKyc,
} from './adapters/card-issuer/port.ts';
export { checkBasicAuth, webhookHeaders } from './adapters/card-issuer/signing.ts';
export type { Applicant, ApplicantStatus } from './adapters/kyc/port.ts';
export {
  checkRequestHeaders,
  checkRequestSignature,
  type DigestAlgorithm,
  payloadDigest,
} from './adapters/kyc/signing.ts';
export type * from './adapters/simulators.ts';
export { twilioSignature } from './adapters/sms/signing.ts';
export type { ChangeFeed } from './db/change-feed.ts';
export { type MigrationSet, migrateSet } from './db/migrate.ts';
export { createPool, type Tx, withTransaction } from './db/pool.ts';
export { prepareSchema } from './db/prepare-schema.ts';
export {
  acceptMultipart,
  MAX_DOCUMENT_BYTES,
  type MultipartBody,
  parseMultipart,
  readMultipart,
  sniffDocumentType,
  streamMultipart,
} from './http/multipart.ts';
export { ownRedirect } from './http/redirects.ts';
export { DueWorker, type DueWorkerOptions } from './jobs/due-worker.ts';
export { openBytes, sealBytes } from './modules/identity/crypto.ts';
export { formatCreatedAtMs } from './modules/kyc/labels.ts';
