import { randomUUID } from 'node:crypto';
import {
  DOCUMENT_LIMITS,
  type DocumentFields,
  ERRORS,
  type KYC_PROFILE_FIELDS,
  type KycReviewResponse,
  type KycTokenResponse,
  profileComplete,
} from '@exchange/shared';
import type pg from 'pg';
import { type KycProvider, KycProviderError } from '../../adapters/kyc/port.ts';
import { verifyPayloadDigest } from '../../adapters/kyc/signing.ts';
import type { Clock } from '../../clock.ts';
import { withTransaction } from '../../db/pool.ts';
import { AppError, invalid, notFound } from '../../http/errors.ts';
import type { UploadedFile } from '../../http/multipart.ts';
import { sniffDocumentType } from '../../http/multipart.ts';
import { ownRedirect } from '../../http/redirects.ts';
import { applyCompanyWebhook, isCompanyWebhook } from '../business/company-service.ts';
import { decrypt, encrypt, type ServerKeys, sealBytes } from '../identity/crypto.ts';
import { latestPhone, lockUser, type UserRecord } from '../identity/users-repository.ts';
import { createdAtMs, decide, webhookSchema } from './labels.ts';
import {
  type ApplicantProfileRow,
  applicantProfile,
  applyKycState,
  type DocumentRow,
  findApplicantRecord,
  findNetVerifyScan,
  insertDocument,
  insertNetVerifyScan,
  kycLabel,
  listDocuments,
  markNetVerifySubmitted,
  recordWebhook,
  type StoredDocumentRow,
  saveApplicantId,
  setProviderDocId,
  setWebhookOutcome,
  userForWebhook,
} from './repository.ts';

export interface KycOptions {
  db: pg.Pool;
  /** Seal the documents users upload, and their numbers, at rest. */
  keys: ServerKeys;
  /** The app's clock: a webhook's staleness and a company's decision are dated on it. */
  clock: Clock;
  provider: KycProvider;
  levelName: string;
  /** The company (KYB) level of business accounts; its webhooks move companies, not persons. */
  kybLevelName?: string;
  /** Where users reach the app (`PUBLIC_URL`): the only origin a return address may point at. */
  publicUrl: string;
  /** The secret webhooks are signed with (`x-payload-digest`). */
  webhookSecret: string;
  /** Simulator: the verification page, relative to the app; Sumsub: the WebSDK script. */
  widget: { kind: 'simulator'; pagePath: string } | { kind: 'sumsub'; sdkUrl: string };
  log?: { warn(obj: unknown, msg?: string): void };
}

/** The company (KYB) level when none is configured (`KYB_LEVEL_NAME`). */
export const DEFAULT_KYB_LEVEL = 'kyb-level';

/** A profile {@link profileComplete} passed: each field it checks is a non-empty string. */
type CompleteProfile = ApplicantProfileRow & Record<(typeof KYC_PROFILE_FIELDS)[number], string>;
const isComplete = (profile: ApplicantProfileRow | undefined): profile is CompleteProfile =>
  profileComplete(profile);

/** Seconds an access token for the widget lives. */
const TOKEN_TTL_SECONDS = 1800;

/** How a document type of ours is filed at the provider (Sumsub `idDocType`). */
const PROVIDER_DOC_TYPE: Record<string, string> = {
  passport: 'PASSPORT',
  identity_card: 'ID_CARD',
  driver_license: 'DRIVERS',
  residence_certificate: 'UTILITY_BILL',
  bank_statement: 'UTILITY_BILL',
  utility_bill: 'UTILITY_BILL',
  tax_bill: 'UTILITY_BILL',
};

/** The webhook outcome a caller sees (the HTTP answer is 200 for all of them, so the provider stops resending). */
export type WebhookResult =
  | 'applied'
  | 'duplicate'
  | 'stale'
  | 'other_level'
  | 'ignored'
  | 'unknown_applicant';

/** Identity verification use cases: the widget token, the applicant id, webhooks, documents, net-verify. */
export class KycService {
  constructor(private readonly o: KycOptions) {}

  get levelName(): string {
    return this.o.levelName;
  }

  /** The provider port, shared with the company (KYB) flow of business accounts. */
  get port(): KycProvider {
    return this.o.provider;
  }

  get kybLevelName(): string {
    return this.o.kybLevelName ?? DEFAULT_KYB_LEVEL;
  }

  /**
   * `GET /resource/sumsub/token`: makes sure the user has an applicant at the provider and returns an access
   * token for the widget. Refused once verified or finally rejected, and while the profile is incomplete.
   */
  async token(user: UserRecord): Promise<KycTokenResponse> {
    const applicantId = await this.ensureApplicant(user);
    const { token, userId } = await this.provider((p) =>
      p.accessToken({ userId: user.uid, levelName: this.o.levelName, ttlInSecs: TOKEN_TTL_SECONDS }),
    );
    const widget = this.o.widget;
    return {
      token,
      userId,
      applicant_id: applicantId,
      level_name: this.o.levelName,
      provider: widget.kind,
      ...(widget.kind === 'simulator'
        ? { widget_url: `${widget.pagePath}?access_token=${encodeURIComponent(token)}` }
        : { sdk_url: widget.sdkUrl }),
    };
  }

  /** `POST /resource/sumsub/applicant_id`: keeps the id the widget reports, once the provider confirms it is this user's. */
  async saveApplicantId(user: UserRecord, applicantId: string): Promise<{ applicant_id: string }> {
    const applicant = await this.provider((p) => p.getApplicant(applicantId));
    if (!applicant || applicant.externalUserId !== user.uid) throw invalid(ERRORS.kycInvalidApplicant);
    await saveApplicantId(this.o.db, user.id, applicant.id, this.o.levelName);
    return { applicant_id: applicant.id };
  }

  /**
   * A provider webhook: the digest over the raw body is checked before anything else; then, in one
   * transaction, the event is recorded by (type, correlationId) and applied unless it was seen before, is
   * older than what is applied, or concerns another level.
   */
  async handleWebhook(rawBody: Buffer, headers: Record<string, unknown>): Promise<WebhookResult> {
    if (!verifyPayloadDigest(this.o.webhookSecret, rawBody, headers))
      throw new AppError(401, [ERRORS.kycWebhookInvalidDigest]);
    let parsed: unknown;
    try {
      parsed = JSON.parse(rawBody.toString('utf8'));
    } catch {
      throw new AppError(400, [ERRORS.kycWebhookInvalidPayload]);
    }
    const event = webhookSchema.safeParse(parsed);
    if (!event.success) throw new AppError(400, [ERRORS.kycWebhookInvalidPayload]);
    const e = event.data;
    return withTransaction(this.o.db, async (tx) => {
      const id = await recordWebhook(tx, { ...e, payload: parsed });
      if (!id) return 'duplicate';
      if (isCompanyWebhook(e, this.kybLevelName)) {
        const company = await applyCompanyWebhook(tx, e, this.o.clock.now());
        await setWebhookOutcome(tx, id, company.outcome, company.userId, createdAtMs(e.createdAtMs));
        return company.outcome;
      }
      const userId = await userForWebhook(tx, e.externalUserId, e.applicantId);
      if (!userId) {
        await setWebhookOutcome(tx, id, 'unknown_applicant', null, createdAtMs(e.createdAtMs));
        return 'unknown_applicant';
      }
      // One webhook at a time per user: the stale check and the write see the same state.
      await lockUser(tx, userId);
      const applied = await findApplicantRecord(tx, userId);
      const decision = decide(e, this.o.levelName, Number(applied?.applied_at_ms ?? 0), this.o.clock.now());
      if (decision.outcome === 'applied') {
        await applyKycState(tx, {
          userId,
          applicantId: e.applicantId,
          levelName: this.o.levelName,
          label: decision.label,
          document: decision.document,
          atMs: decision.atMs,
          comment: decision.comment,
        });
      }
      await setWebhookOutcome(tx, id, decision.outcome, userId, createdAtMs(e.createdAtMs));
      return decision.outcome;
    });
  }

  /**
   * `POST /resource/documents`: stores identity, address or business documents (JPG, JPEG, PNG or PDF by
   * content, at most 2 MB each) and files them with the provider when the user has an applicant.
   */
  async uploadDocuments(
    user: UserRecord,
    fields: DocumentFields,
    files: UploadedFile[],
  ): Promise<DocumentRow[]> {
    if ((await kycLabel(this.o.db, user.id)) === 'rejected') throw invalid(ERRORS.kycRejectedFinal);
    if (files.length === 0) throw invalid(ERRORS.documentMissingUpload);
    if (files.length > DOCUMENT_LIMITS.maxFiles) throw invalid(ERRORS.documentTooMany);
    const typed = files.map((f) => {
      if (f.truncated || f.content.length > DOCUMENT_LIMITS.maxBytes) throw invalid(ERRORS.documentTooLarge);
      const mimeType = sniffDocumentType(f.content);
      if (!mimeType) throw invalid(ERRORS.documentInvalidFormat);
      return { ...f, mimeType };
    });
    const stored = await withTransaction(this.o.db, async (tx) => {
      const rows: DocumentRow[] = [];
      for (const f of typed) {
        rows.push(
          await insertDocument(tx, {
            userId: user.id,
            docType: fields.doc_type,
            docNumberSealed: fields.doc_number ? encrypt(this.o.keys, fields.doc_number) : null,
            docExpire: fields.doc_expire,
            fileName: f.fileName.slice(0, 200) || 'upload',
            mimeType: f.mimeType,
            sizeBytes: f.content.length,
            sealed: sealBytes(this.o.keys.encryptionKey, f.content),
          }).then((row) => this.opened(row)),
        );
      }
      return rows;
    });
    await this.fileWithProvider(user, fields.doc_type, typed, stored);
    return stored;
  }

  async listDocuments(user: UserRecord): Promise<DocumentRow[]> {
    return (await listDocuments(this.o.db, user.id)).map((row) => this.opened(row));
  }

  /** A stored document with its number opened for its owner. */
  private opened({ doc_number_sealed, ...row }: StoredDocumentRow): DocumentRow {
    return { ...row, doc_number: doc_number_sealed ? decrypt(this.o.keys, doc_number_sealed) : null };
  }

  /**
   * `POST /resource/profiles/net_verify/initiate`: a scan reference and the provider's hosted page to send the
   * user to. The return address must be our own (a path, or `PUBLIC_URL`'s origin): never an open redirect.
   */
  async netVerifyInitiate(
    user: UserRecord,
    redirectUrl: string,
  ): Promise<{ scan_ref: string; redirectUrl: string }> {
    if (!ownRedirect(redirectUrl, this.o.publicUrl)) throw invalid(ERRORS.kycInvalidRedirect);
    await this.ensureApplicant(user);
    const scanRef = randomUUID();
    const back = new URL(redirectUrl, 'http://relative.invalid');
    back.searchParams.set('scan_ref', scanRef);
    const returnTo =
      back.origin === 'http://relative.invalid' ? `${back.pathname}${back.search}` : back.toString();
    const link = await this.provider((p) =>
      p.webSdkLink({
        userId: user.uid,
        levelName: this.o.levelName,
        ttlInSecs: TOKEN_TTL_SECONDS,
        redirectUrl: returnTo,
      }),
    );
    await insertNetVerifyScan(this.o.db, scanRef, user.id, returnTo);
    return { scan_ref: scanRef, redirectUrl: link.url };
  }

  /** `/net_verify/success`: the user came back from the provider's page; the scan is marked submitted. */
  async netVerifySuccess(user: UserRecord, scanRef: string) {
    if (!(await markNetVerifySubmitted(this.o.db, scanRef, user.id))) throw notFound();
    return this.netVerifyKyc(user, scanRef);
  }

  /** `GET /resource/kyc/review`: the user's KYC label and the reviewer's comment from the latest review result. */
  async review(user: UserRecord): Promise<KycReviewResponse> {
    const label = (await kycLabel(this.o.db, user.id)) ?? 'pending';
    const record = await findApplicantRecord(this.o.db, user.id);
    // A comment belongs to a rejection or a retry: once verified (or resubmitted), it is history.
    const open = label === 'rejected' || label === 'retry';
    return { kyc_status: label, comment: open ? (record?.review_comment ?? null) : null };
  }

  /** `/net_verify/kyc`: where the verification of a scan stands (the KYC label and the provider's review). */
  async netVerifyKyc(user: UserRecord, scanRef: string) {
    const scan = await findNetVerifyScan(this.o.db, scanRef, user.id);
    if (!scan) throw notFound();
    const record = await findApplicantRecord(this.o.db, user.id);
    const review = record?.applicant_id
      ? await this.provider((p) => p.getApplicantStatus(record.applicant_id as string))
      : undefined;
    return {
      scan_ref: scan.scan_ref,
      state: scan.state,
      kyc_status: (await kycLabel(this.o.db, user.id)) ?? 'pending',
      review_status: review?.reviewStatus ?? 'init',
      review_answer: review?.reviewResult?.reviewAnswer ?? null,
    };
  }

  /** The user's applicant id, creating the applicant at the provider on first use. */
  private async ensureApplicant(user: UserRecord): Promise<string> {
    const label = await kycLabel(this.o.db, user.id);
    if (label === 'verified') throw invalid(ERRORS.kycAlreadyVerified);
    if (label === 'rejected') throw invalid(ERRORS.kycRejectedFinal);
    const profile = await applicantProfile(this.o.db, user.id);
    if (!isComplete(profile)) throw invalid(ERRORS.kycProfileIncomplete);
    const known = await findApplicantRecord(this.o.db, user.id);
    if (known?.applicant_id && known.level_name === this.o.levelName) return known.applicant_id;
    const applicant =
      (await this.provider((p) => p.findApplicantByExternalId(user.uid))) ??
      (await this.provider(async (p) =>
        p.createApplicant({
          externalUserId: user.uid,
          levelName: this.o.levelName,
          email: user.email,
          phone: (await latestPhone(this.o.db, user.id))?.number,
          fixedInfo: {
            firstName: profile.first_name ?? undefined,
            lastName: profile.last_name ?? undefined,
            dob: profile.dob,
            gender: profile.gender === 'male' ? 'M' : profile.gender === 'female' ? 'F' : undefined,
            country: profile.country,
            addresses: [
              {
                street: profile.address,
                town: profile.city,
                postCode: profile.postcode,
                country: profile.country,
              },
            ],
          },
        }),
      ));
    await saveApplicantId(this.o.db, user.id, applicant.id, this.o.levelName);
    return applicant.id;
  }

  /** Files uploaded documents with the provider; a provider failure leaves them stored here and is logged. */
  private async fileWithProvider(
    user: UserRecord,
    docType: string,
    files: (UploadedFile & { mimeType: string })[],
    stored: DocumentRow[],
  ): Promise<void> {
    const record = await findApplicantRecord(this.o.db, user.id);
    if (!record?.applicant_id) return;
    for (const [i, f] of files.entries()) {
      try {
        const { id } = await this.o.provider.addDocument(
          record.applicant_id,
          { idDocType: PROVIDER_DOC_TYPE[docType] ?? 'OTHER' },
          { name: f.fileName || 'upload', mimeType: f.mimeType, content: f.content },
        );
        await setProviderDocId(this.o.db, stored[i]?.id, id);
      } catch (err) {
        this.o.log?.warn({ err }, 'kyc: filing a document with the provider failed');
      }
    }
  }

  /** Runs a provider call; an unreachable or failing provider becomes 503 `resource.kyc.provider_unavailable`. */
  private async provider<T>(work: (p: KycProvider) => Promise<T>): Promise<T> {
    try {
      return await work(this.o.provider);
    } catch (err) {
      if (err instanceof KycProviderError) {
        this.o.log?.warn({ err: err.message }, 'kyc provider call failed');
        throw new AppError(503, [ERRORS.kycProviderUnavailable]);
      }
      throw err;
    }
  }
}
