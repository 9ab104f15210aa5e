import { hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import type {
  Applicant,
  ApplicantStatus,
  DeskWaitingApplicant,
  KycSimulatorCredentials,
} from '@exchange/server/provider-kit';
import {
  formatCreatedAtMs,
  openBytes,
  sealBytes,
  type Tx,
  withTransaction,
} from '@exchange/server/provider-kit';
import type pg from 'pg';
import { storedCredentials } from '../credentials.ts';

type Db = pg.Pool | Tx;

/** The simulator's credentials: what a Sumsub dashboard would hand out (app token, its secret, webhook secret). */
export type SimulatorCredentials = KycSimulatorCredentials;

/** Loads the simulator's credentials, generating them once (shared by the app and the operator CLI). */
export async function loadSimulatorCredentials(db: pg.Pool): Promise<SimulatorCredentials> {
  const fresh: SimulatorCredentials = {
    appToken: `sbx:${randomBytes(18).toString('base64url')}`,
    secretKey: randomBytes(24).toString('base64url'),
    webhookSecret: randomBytes(24).toString('base64url'),
  };
  return storedCredentials<SimulatorCredentials>(db, 'kyc_simulator', fresh);
}

/**
 * The key the simulator seals document images with, as a provider keeps its customers' documents encrypted. Derived
 * from its own secret, so credentials stored by an earlier version need nothing new.
 */
export function simulatorDocumentKey(credentials: SimulatorCredentials): Buffer {
  return Buffer.from(hkdfSync('sha256', credentials.secretKey, 'kyc-simulator', 'document-images', 32));
}

/** A simulator applicant row. */
export interface SimApplicant {
  id: string;
  inspection_id: string;
  external_user_id: string;
  level_name: string;
  email: string | null;
  phone: string | null;
  info: Record<string, unknown>;
  review_status: 'init' | 'pending' | 'onHold' | 'completed';
  review_answer: 'GREEN' | 'RED' | null;
  reject_type: 'RETRY' | 'FINAL' | null;
  /** The reviewer's words to the applicant on a rejection or a retry (Sumsub's `moderationComment`). */
  moderation_comment: string | null;
  /** A person, or a company at a KYB level (Sumsub's applicant `type`). */
  applicant_type: 'individual' | 'company';
  created_at: Date;
}

/** A 24-hex-digit id, like Sumsub's. */
const objectId = () => randomBytes(12).toString('hex');

/** The applicant as Sumsub's `GET /resources/applicants/{id}/one` shows it. */
export function applicantView(a: SimApplicant): Applicant & Record<string, unknown> {
  return {
    id: a.id,
    createdAt: formatCreatedAtMs(a.created_at.getTime()).slice(0, 19),
    clientId: 'exchange-simulator',
    inspectionId: a.inspection_id,
    externalUserId: a.external_user_id,
    levelName: a.level_name,
    email: a.email ?? undefined,
    phone: a.phone ?? undefined,
    fixedInfo: a.info,
    review: statusView(a),
    type: a.applicant_type,
  };
}

/** The review status as `GET /resources/applicants/{id}/status` shows it. */
export function statusView(a: SimApplicant): ApplicantStatus {
  return {
    reviewStatus: a.review_status,
    levelName: a.level_name,
    ...(a.review_status === 'completed' && a.review_answer
      ? {
          reviewResult: {
            reviewAnswer: a.review_answer,
            ...(a.review_answer === 'RED' ? { reviewRejectType: a.reject_type ?? 'FINAL' } : {}),
            ...(a.review_answer === 'RED' && a.moderation_comment
              ? { moderationComment: a.moderation_comment }
              : {}),
          },
        }
      : {}),
  };
}

export async function findSimApplicant(db: Db, id: string): Promise<SimApplicant | undefined> {
  return (await db.query('select * from kyc_sim_applicants where id = $1', [id])).rows[0];
}

/** The newest applicant of an external user id (any level). */
export async function findSimApplicantByExternalId(
  db: Db,
  externalUserId: string,
): Promise<SimApplicant | undefined> {
  return (
    await db.query(
      'select * from kyc_sim_applicants where external_user_id = $1 order by created_at desc limit 1',
      [externalUserId],
    )
  ).rows[0];
}

/** Creates an applicant (or returns the existing one of that user and level) and announces it. */
export async function createSimApplicant(
  db: pg.Pool,
  input: {
    externalUserId: string;
    levelName: string;
    email?: string;
    phone?: string;
    info?: unknown;
    type?: 'individual' | 'company';
  },
): Promise<{ applicant: SimApplicant; created: boolean }> {
  return withTransaction(db, async (tx) => {
    const inserted = await tx.query(
      `insert into kyc_sim_applicants (id, inspection_id, external_user_id, level_name, email, phone, info,
         applicant_type)
       values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict (external_user_id, level_name) do nothing returning *`,
      [
        objectId(),
        objectId(),
        input.externalUserId,
        input.levelName,
        input.email ?? null,
        input.phone ?? null,
        input.info ?? {},
        input.type ?? 'individual',
      ],
    );
    const applicant: SimApplicant =
      inserted.rows[0] ??
      (
        await tx.query('select * from kyc_sim_applicants where external_user_id = $1 and level_name = $2', [
          input.externalUserId,
          input.levelName,
        ])
      ).rows[0];
    if (inserted.rows[0]) await enqueueWebhook(tx, applicant, 'applicantCreated');
    return { applicant, created: Boolean(inserted.rows[0]) };
  });
}

/** Queues one webhook for the exchange, in Sumsub's shape; the delivery worker signs and sends it. */
export async function enqueueWebhook(db: Db, applicant: SimApplicant, type: string): Promise<void> {
  const reviewStatus =
    type === 'applicantCreated' || type === 'applicantReset' ? 'init' : applicant.review_status;
  const payload = {
    applicantId: applicant.id,
    inspectionId: applicant.inspection_id,
    applicantType: applicant.applicant_type ?? 'individual',
    correlationId: `req-${randomUUID()}`,
    levelName: applicant.level_name,
    sandboxMode: true,
    externalUserId: applicant.external_user_id,
    type,
    reviewStatus,
    ...(type === 'applicantReviewed' ? { reviewResult: statusView(applicant).reviewResult } : {}),
    createdAtMs: formatCreatedAtMs(Date.now()),
    clientId: 'exchange-simulator',
  };
  await db.query('insert into kyc_sim_webhooks (payload) values ($1)', [JSON.stringify(payload)]);
}

/** What a reviewer (or the applicant) can do to an applicant; each emits the webhook Sumsub would send. */
export type SimAction = 'submit' | 'approve' | 'reject' | 'retry' | 'hold' | 'reset';

/** Why an action is refused. */
export type SimRefusal = 'not_found' | 'final' | 'not_submitted' | 'already_reviewed';

/**
 * Applies an action in one transaction and queues its webhook. `autoApproveSeconds` > 0 schedules the
 * simulated reviewer's GREEN after a submission. `comment` is the reviewer's word to the applicant on a
 * rejection or a retry. `record`, when given, runs in the same transaction once the action is applied (the
 * console's staff trail): should it throw, nothing of the action remains.
 */
export async function actOnApplicant(
  db: pg.Pool,
  applicantId: string,
  action: SimAction,
  autoApproveSeconds = 0,
  comment: string | null = null,
  record?: (tx: Tx, before: SimApplicant, after: SimApplicant) => Promise<void>,
): Promise<SimApplicant | SimRefusal> {
  return withTransaction(db, async (tx) => {
    const current: SimApplicant | undefined = (
      await tx.query('select * from kyc_sim_applicants where id = $1 for update', [applicantId])
    ).rows[0];
    if (!current) return 'not_found';
    const refusal = refuse(current, action);
    if (refusal) return refusal;
    const next = transition(action);
    const updated: SimApplicant = (
      await tx.query(
        `update kyc_sim_applicants set review_status = $2, review_answer = $3, reject_type = $4,
           auto_review_at = case when $5::int > 0 then now() + make_interval(secs => $5::int) end,
           moderation_comment = $6, updated_at = now()
         where id = $1 returning *`,
        [
          applicantId,
          next.status,
          next.answer,
          next.rejectType,
          action === 'submit' ? autoApproveSeconds : 0,
          next.answer === 'RED' ? comment : null,
        ],
      )
    ).rows[0];
    if (action === 'reset')
      await tx.query('delete from kyc_sim_documents where applicant_id = $1', [applicantId]);
    await enqueueWebhook(tx, updated, next.webhook);
    await record?.(tx, current, updated);
    return updated;
  });
}

function refuse(a: SimApplicant, action: SimAction): SimRefusal | null {
  const final = a.review_status === 'completed' && a.review_answer === 'RED' && a.reject_type !== 'RETRY';
  if (action === 'reset') return null;
  if (action === 'submit') {
    if (final) return 'final';
    if (a.review_status === 'completed' && a.review_answer === 'GREEN') return 'already_reviewed';
    return null;
  }
  if (a.review_status === 'init') return 'not_submitted';
  if (a.review_status === 'completed') return final ? 'final' : 'already_reviewed';
  return null;
}

function transition(action: SimAction): {
  status: SimApplicant['review_status'];
  answer: 'GREEN' | 'RED' | null;
  rejectType: 'RETRY' | 'FINAL' | null;
  webhook: string;
} {
  switch (action) {
    case 'submit':
      return { status: 'pending', answer: null, rejectType: null, webhook: 'applicantPending' };
    case 'hold':
      return { status: 'onHold', answer: null, rejectType: null, webhook: 'applicantOnHold' };
    case 'approve':
      return { status: 'completed', answer: 'GREEN', rejectType: null, webhook: 'applicantReviewed' };
    case 'retry':
      return { status: 'completed', answer: 'RED', rejectType: 'RETRY', webhook: 'applicantReviewed' };
    case 'reject':
      return { status: 'completed', answer: 'RED', rejectType: 'FINAL', webhook: 'applicantReviewed' };
    case 'reset':
      return { status: 'init', answer: null, rejectType: null, webhook: 'applicantReset' };
  }
}

/** Stores one uploaded document of an applicant, its image sealed with `key` ({@link simulatorDocumentKey}). */
export async function addSimDocument(
  db: Db,
  key: Buffer,
  applicantId: string,
  doc: {
    idDocType: string;
    idDocSubType?: string;
    country?: string;
    fileName?: string;
    mimeType: string;
    content: Buffer;
  },
): Promise<string> {
  const row = (
    await db.query(
      `insert into kyc_sim_documents (applicant_id, id_doc_type, id_doc_sub_type, country, file_name, mime_type,
         content_sealed) values ($1, $2, $3, $4, $5, $6, $7) returning id`,
      [
        applicantId,
        doc.idDocType,
        doc.idDocSubType ?? null,
        doc.country ?? null,
        doc.fileName ?? null,
        doc.mimeType,
        sealBytes(key, doc.content),
      ],
    )
  ).rows[0];
  return String(row.id);
}

/** The desk's queue: applicants submitted and not decided, the longest waiting first, with their documents. */
export async function waitingApplicants(db: Db): Promise<DeskWaitingApplicant[]> {
  const rows = await db.query<DeskWaitingApplicant>(
    `select a.id, a.external_user_id, a.review_status, a.applicant_type,
       to_char(a.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as submitted_at,
       coalesce((select json_agg(json_build_object('id', d.id, 'type', d.id_doc_type, 'side', d.id_doc_sub_type,
         'mime_type', d.mime_type) order by d.id) from kyc_sim_documents d where d.applicant_id = a.id), '[]')
         as documents
     from kyc_sim_applicants a where a.review_status in ('pending', 'onHold') order by a.updated_at, a.id`,
  );
  return rows.rows;
}

/**
 * One document image of the applicants of `externalUserId` (the person, or the company applicant the exchange files
 * as `<uid>-kyb`), opened (for the reviewer); undefined if none.
 */
export async function simDocumentImage(
  db: Db,
  key: Buffer,
  externalUserId: string,
  id: number,
): Promise<{ mimeType: string; content: Buffer } | undefined> {
  const row = (
    await db.query(
      `select d.mime_type, d.content_sealed from kyc_sim_documents d join kyc_sim_applicants a on a.id = d.applicant_id
       where a.external_user_id in ($1, $1 || '-kyb') and d.id = $2`,
      [externalUserId, id],
    )
  ).rows[0];
  return row ? { mimeType: row.mime_type, content: openBytes(key, row.content_sealed) } : undefined;
}

/** Issues a web-SDK access token for an external user id and level. */
export async function issueAccessToken(
  db: Db,
  externalUserId: string,
  levelName: string,
  ttlInSecs: number,
): Promise<string> {
  const token = `_act-sbx-${randomBytes(24).toString('base64url')}`;
  await db.query(
    `insert into kyc_sim_access_tokens (token, external_user_id, level_name, expires_at)
     values ($1, $2, $3, now() + make_interval(secs => $4::int))`,
    [token, externalUserId, levelName, ttlInSecs],
  );
  await db.query('delete from kyc_sim_access_tokens where expires_at < now()');
  return token;
}

/** The applicant an access token is for, if the token is live. */
export async function applicantForToken(db: Db, token: string): Promise<SimApplicant | undefined> {
  return (
    await db.query(
      `select a.* from kyc_sim_access_tokens t
       join kyc_sim_applicants a on a.external_user_id = t.external_user_id and a.level_name = t.level_name
       where t.token = $1 and t.expires_at > now()`,
      [token],
    )
  ).rows[0];
}

/** Whether a company applicant has uploaded a company document (the KYB level asks for one). */
export async function hasCompanyDocument(db: pg.Pool, applicantId: string): Promise<boolean> {
  const docs = await db.query(
    `select 1 from kyc_sim_documents where applicant_id = $1 and id_doc_type = 'COMPANY_DOC'`,
    [applicantId],
  );
  return Boolean(docs.rowCount);
}
