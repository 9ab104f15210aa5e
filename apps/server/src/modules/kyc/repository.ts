import type pg from 'pg';
import type { NoRows, Tx } from '../../db/pool.ts';
import { settleLevel } from '../business/level-repository.ts';
import type { ProfileRow } from '../identity/profile-repository.ts';
import { setLabel } from '../identity/users-repository.ts';
import { KYC_LABEL_KEY, type KycLabel } from './labels.ts';

type Db = pg.Pool | Tx;

/** The exchange's record of a user's applicant at the provider. */
export interface ApplicantRecord {
  user_id: string;
  applicant_id: string | null;
  level_name: string;
  applied_at_ms: string;
  /** The reviewer's words with the latest review result (rejection or retry), or null. */
  review_comment: string | null;
}

export async function findApplicantRecord(db: Db, userId: string): Promise<ApplicantRecord | undefined> {
  return (
    await db.query<{
      user_id: string;
      applicant_id: string | null;
      level_name: string;
      applied_at_ms: string;
      review_status: string | null;
      review_answer: string | null;
      reject_type: string | null;
      created_at: Date;
      updated_at: Date;
      review_comment: string | null;
    }>('select * from kyc_applicants where user_id = $1', [userId])
  ).rows[0];
}

/** Remembers the applicant id of a user (the provider's id for the user at the configured level). */
export async function saveApplicantId(
  db: Db,
  userId: string,
  applicantId: string,
  levelName: string,
): Promise<void> {
  await db.query(
    `insert into kyc_applicants (user_id, applicant_id, level_name) values ($1, $2, $3)
     on conflict (user_id) do update set applicant_id = excluded.applicant_id, level_name = excluded.level_name,
       updated_at = now()`,
    [userId, applicantId, levelName],
  );
}

/** The current `basic-kyc-level` label value of a user, or null. */
export async function kycLabel(db: Db, userId: string): Promise<string | null> {
  const row = (
    await db.query<{ value: string }>('select value from labels where user_id = $1 and key = $2', [
      userId,
      KYC_LABEL_KEY,
    ])
  ).rows[0];
  return row?.value ?? null;
}

/** The user a webhook is about: by externalUserId (the user's uid), else by the stored applicant id. */
export async function userForWebhook(
  db: Db,
  externalUserId: string | undefined,
  applicantId: string,
): Promise<string | undefined> {
  const row = (
    await db.query<{ id: string }>(
      `select id from users where uid = $1
       union all select user_id from kyc_applicants where applicant_id = $2 limit 1`,
      [externalUserId ?? null, applicantId],
    )
  ).rows[0];
  return row ? String(row.id) : undefined;
}

/**
 * Records a webhook as seen; false when this (type, correlationId) was seen before, so a redelivery is a no-op.
 * Runs inside the transaction that applies it: a crash leaves neither.
 */
export async function recordWebhook(
  tx: Tx,
  event: { type: string; correlationId: string; applicantId: string; payload: unknown },
): Promise<string | null> {
  const row = (
    await tx.query<{ id: string }>(
      `insert into kyc_webhook_events (type, correlation_id, applicant_id, outcome, payload)
       values ($1, $2, $3, 'received', $4) on conflict (type, correlation_id) do nothing returning id`,
      [event.type, event.correlationId, event.applicantId, JSON.stringify(event.payload)],
    )
  ).rows[0];
  return row ? String(row.id) : null;
}

export async function setWebhookOutcome(
  tx: Tx,
  id: string,
  outcome: string,
  userId: string | null,
  createdAtMs: number | null,
): Promise<void> {
  await tx.query(
    'update kyc_webhook_events set outcome = $2, user_id = $3, created_at_ms = $4 where id = $1',
    [id, outcome, userId, createdAtMs],
  );
}

/**
 * Applies a KYC label: the `basic-kyc-level` label, the `document` label that goes with it, and the level
 * (3 exactly while `document: verified` and, for a business, its company verified; back to 2 when either goes),
 * plus the applicant's applied timestamp.
 */
export async function applyKycState(
  tx: Tx,
  input: {
    userId: string;
    applicantId: string;
    levelName: string;
    label: KycLabel;
    document: string | null;
    atMs: number;
    /** The reviewer's words to the user, kept until the next review result replaces them. */
    comment: string | null;
  },
): Promise<void> {
  await setLabel(tx, input.userId, KYC_LABEL_KEY, input.label);
  if (input.document) await setLabel(tx, input.userId, 'document', input.document);
  else await tx.query(`delete from labels where user_id = $1 and key = 'document'`, [input.userId]);
  // Level 3 needs the document verified, and a business account's company as well.
  await settleLevel(tx, input.userId);
  await tx.query(
    `insert into kyc_applicants (user_id, applicant_id, level_name, applied_at_ms, review_comment)
     values ($1, $2, $3, $4, $5)
     on conflict (user_id) do update set applicant_id = excluded.applicant_id, applied_at_ms = excluded.applied_at_ms,
       review_comment = excluded.review_comment, updated_at = now()`,
    [input.userId, input.applicantId, input.levelName, input.atMs, input.comment],
  );
}

/** A stored document, without its content; the document number as stored (sealed). */
export interface StoredDocumentRow {
  id: string;
  doc_type: string;
  doc_number_sealed: string | null;
  doc_expire: string | null;
  file_name: string;
  mime_type: string;
  size_bytes: number;
  created_at: Date;
}

/** A document as the API shows it: the number opened, never the content. */
export type DocumentRow = Omit<StoredDocumentRow, 'doc_number_sealed'> & { doc_number: string | null };

const DOCUMENT = `id, doc_type, doc_number_sealed, to_char(doc_expire, 'YYYY-MM-DD') as doc_expire, file_name,
  mime_type, size_bytes, created_at`;

/** Stores an uploaded document whose image and number the caller sealed. */
export async function insertDocument(
  db: Db,
  doc: {
    userId: string;
    docType: string;
    docNumberSealed: string | null;
    docExpire?: string;
    fileName: string;
    mimeType: string;
    sizeBytes: number;
    sealed: Buffer;
  },
): Promise<StoredDocumentRow> {
  return (
    await db.query<StoredDocumentRow>(
      `insert into kyc_documents (user_id, doc_type, doc_number_sealed, doc_expire, file_name, mime_type, size_bytes,
         content_sealed)
       values ($1, $2, $3, $4, $5, $6, $7, $8) returning ${DOCUMENT}`,
      [
        doc.userId,
        doc.docType,
        doc.docNumberSealed,
        doc.docExpire ?? null,
        doc.fileName,
        doc.mimeType,
        doc.sizeBytes,
        doc.sealed,
      ],
    )
  ).rows[0]!;
}

export async function listDocuments(db: Db, userId: string): Promise<StoredDocumentRow[]> {
  return (
    await db.query<StoredDocumentRow>(
      `select ${DOCUMENT} from kyc_documents where user_id = $1 order by id`,
      [userId],
    )
  ).rows;
}

/** The user's `basic-kyc-level` and `document` labels (the command line's `kyc status`). */
export async function kycStatusLabels(db: Db, userId: string): Promise<{ key: string; value: string }[]> {
  return (
    await db.query<{ key: string; value: string }>(
      `select key, value from labels where user_id = $1 and key in ('basic-kyc-level', 'document')`,
      [userId],
    )
  ).rows;
}

/** The latest profile as an applicant starts with it: the profile screen's columns but its state. */
export type ApplicantProfileRow = Omit<ProfileRow, 'state'>;

/** The user's latest profile for a new applicant, or undefined when there is none. */
export async function applicantProfile(db: Db, userId: string): Promise<ApplicantProfileRow | undefined> {
  return (
    await db.query<ApplicantProfileRow>(
      `select first_name, last_name, gender, to_char(dob, 'YYYY-MM-DD') as dob, address, postcode, city, country
         from profiles where user_id = $1 order by id desc limit 1`,
      [userId],
    )
  ).rows[0];
}

/** Records the user's start of a net-verify scan that returns to `redirectUrl`. */
export async function insertNetVerifyScan(
  db: Db,
  scanRef: string,
  userId: string,
  redirectUrl: string,
): Promise<void> {
  await db.query('insert into kyc_net_verify_scans (scan_ref, user_id, redirect_url) values ($1, $2, $3)', [
    scanRef,
    userId,
    redirectUrl,
  ]);
}

/** Marks the user's scan submitted; false when the user has no scan with that reference. */
export async function markNetVerifySubmitted(db: Db, scanRef: string, userId: string): Promise<boolean> {
  const updated = await db.query<NoRows>(
    `update kyc_net_verify_scans set state = 'submitted', updated_at = now() where scan_ref = $1 and user_id = $2`,
    [scanRef, userId],
  );
  return Boolean(updated.rowCount);
}

/** The user's scan with that reference and where it stands, or undefined. */
export async function findNetVerifyScan(
  db: Db,
  scanRef: string,
  userId: string,
): Promise<{ scan_ref: string; state: string } | undefined> {
  return (
    await db.query<{ scan_ref: string; state: string }>(
      'select scan_ref, state from kyc_net_verify_scans where scan_ref = $1 and user_id = $2',
      [scanRef, userId],
    )
  ).rows[0];
}

/** Remembers the provider's id of a document filed with it. */
export async function setProviderDocId(db: Db, id: string | undefined, providerDocId: string): Promise<void> {
  await db.query('update kyc_documents set provider_doc_id = $2 where id = $1', [id, providerDocId]);
}
