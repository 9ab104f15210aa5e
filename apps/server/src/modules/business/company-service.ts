import {
  COMPANY_ERRORS,
  type CompanyInput,
  type CompanyResponse,
  DOCUMENT_LIMITS,
  ERRORS,
  registerExtractDateError,
} from '@exchange/shared';
import type pg from 'pg';
import { type KycProvider, KycProviderError } from '../../adapters/kyc/port.ts';
import type { Clock } from '../../clock.ts';
import { type Tx, withTransaction } from '../../db/pool.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { sniffDocumentType, type UploadedFile } from '../../http/multipart.ts';
import { openBytes, type ServerKeys, sealBytes } from '../identity/crypto.ts';
import { lockUser, recordActivity, type UserRecord } from '../identity/users-repository.ts';
import { createdAtMs, type KycWebhook, labelFor } from '../kyc/labels.ts';
import {
  type CompanyRow,
  companyOwnerByApplicant,
  findCompany,
  findCompanyByApplicant,
  insertCompanyDocument,
  listCompanyDocuments,
  listRepresentatives,
  markDocumentFiled,
  markSubmitted,
  saveCompany,
  saveCompanyApplicant,
  setCompanyReview,
  unfiledDocuments,
} from './company-repository.ts';
import { settleLevel } from './level-repository.ts';

export interface CompanyOptions {
  db: pg.Pool;
  keys: ServerKeys;
  /** The app's clock: a register extract's age is measured on its day (UTC). */
  clock: Clock;
  provider: KycProvider;
  /** The provider's company (KYB) level (`KYB_LEVEL_NAME`). */
  kybLevelName: string;
  log?: { warn(obj: unknown, msg?: string): void };
}

/**
 * The company's applicant at the provider is an applicant of its own (Sumsub keeps one `externalUserId` per
 * applicant): the account's uid with this suffix, so it never meets the holder's personal applicant.
 */
export const COMPANY_APPLICANT_SUFFIX = '-kyb';

/** States in which the company's details and documents may still change. */
const EDITABLE: CompanyRow['review_state'][] = ['draft', 'retry'];

/** The day of `clock` in UTC, as the register extract's date is compared. */
const today = (clock: Clock) => new Date(clock.now()).toISOString().slice(0, 10);

/**
 * Business accounts (issue 31, part 3): the company, its people and its register extract, and its verification
 * through the provider's company (KYB) flow. Only the account's own company is ever read or written: every call
 * takes the signed-in user, never an id from the request.
 */
/** Where a request came from, for the security log. */
export interface Origin {
  ip: string;
  userAgent: string | null;
}

export class CompanyService {
  constructor(private readonly o: CompanyOptions) {}

  /** `GET /resource/company`. */
  async get(user: UserRecord): Promise<CompanyResponse> {
    return this.present(await this.own(user));
  }

  /** `PUT /resource/company`: enters or corrects the company while it is a draft or sent back for a retry. */
  async save(user: UserRecord, input: CompanyInput, origin: Origin): Promise<CompanyResponse> {
    this.business(user);
    await withTransaction(this.o.db, async (tx) => {
      const current = await findCompany(tx, user.id, true);
      if (current) this.editable(current);
      await saveCompany(tx, user.id, input);
      await this.log(tx, user, origin, 'company.update', { name: input.name });
    });
    return this.get(user);
  }

  /**
   * `POST /resource/company/documents`: the commercial register extract (one JPG, PNG or PDF file by content, at
   * most 2 MB) with the date it was issued, which must be within the last year.
   */
  async uploadExtract(
    user: UserRecord,
    issuedOn: string,
    files: UploadedFile[],
    origin: Origin,
  ): Promise<CompanyResponse> {
    const company = await this.own(user);
    this.editable(company);
    const dateError = registerExtractDateError(issuedOn, today(this.o.clock));
    if (dateError) throw invalid(dateError);
    if (files.length === 0) throw invalid(ERRORS.documentMissingUpload);
    if (files.length > 1) throw invalid(ERRORS.documentTooMany);
    const file = files[0] as UploadedFile;
    if (file.truncated || file.content.length > DOCUMENT_LIMITS.maxBytes)
      throw invalid(ERRORS.documentTooLarge);
    const mimeType = sniffDocumentType(file.content);
    if (!mimeType) throw invalid(ERRORS.documentInvalidFormat);
    await insertCompanyDocument(this.o.db, {
      companyId: company.id,
      issuedOn,
      fileName: file.fileName.slice(0, 200) || 'register-extract',
      mimeType,
      sizeBytes: file.content.length,
      sealed: sealBytes(this.o.keys.encryptionKey, file.content),
    });
    await this.log(this.o.db, user, origin, 'company.document', { issued_on: issuedOn });
    return this.get(user);
  }

  /**
   * `POST /resource/company/submit`: sends the company to the provider's KYB level and asks for its review. The
   * newest register extract must still be under one year old today. The company applicant is created once (with
   * its company and people as Sumsub's `companyInfo`), the documents not yet filed are filed, then the check is
   * requested; the provider's webhooks move the company's state from there.
   */
  async submit(user: UserRecord, origin: Origin): Promise<CompanyResponse> {
    const company = await this.own(user);
    this.editable(company);
    const documents = await listCompanyDocuments(this.o.db, company.id);
    const newest = documents.at(-1);
    if (!newest) throw invalid(COMPANY_ERRORS.extractMissing);
    const dateError = registerExtractDateError(newest.issued_on, today(this.o.clock));
    if (dateError) throw invalid(dateError);
    const people = await listRepresentatives(this.o.db, company.id);
    const externalUserId = `${user.uid}${COMPANY_APPLICANT_SUFFIX}`;
    const applicantId =
      company.applicant_id ??
      (await this.provider(async (p) => {
        const applicant =
          (await p.findApplicantByExternalId(externalUserId)) ??
          (await p.createApplicant({
            externalUserId,
            levelName: this.o.kybLevelName,
            email: user.email,
            type: 'company',
            fixedInfo: {
              companyInfo: {
                companyName: company.name,
                registrationNumber: company.registration_number,
                country: company.country,
                legalAddress: company.address,
                beneficiaries: people.map((r) => ({
                  name: r.name,
                  types: [r.role],
                  ...(r.ownership !== null ? { shareSize: r.ownership } : {}),
                })),
              },
            },
          }));
        return applicant.id;
      }));
    if (!company.applicant_id) await saveCompanyApplicant(this.o.db, company.id, applicantId);
    for (const doc of await unfiledDocuments(this.o.db, company.id)) {
      const { id } = await this.provider((p) =>
        p.addDocument(
          applicantId,
          { idDocType: 'COMPANY_DOC', idDocSubType: 'STATE_REGISTRY', issuedDate: doc.issued_on },
          {
            name: doc.file_name,
            mimeType: doc.mime_type,
            content: openBytes(this.o.keys.encryptionKey, doc.content_sealed),
          },
        ),
      );
      await markDocumentFiled(this.o.db, doc.id, id);
    }
    await this.provider((p) => p.requestCheck(applicantId));
    await markSubmitted(this.o.db, company.id);
    await this.log(this.o.db, user, origin, 'company.submit', { applicant_id: applicantId });
    return this.get(user);
  }

  /** A change of the company in the owner's security log (topic `account`, with verification). */
  private log(
    db: pg.Pool | pg.PoolClient,
    user: UserRecord,
    origin: Origin,
    action: 'company.update' | 'company.document' | 'company.submit',
    data: Record<string, unknown>,
  ): Promise<void> {
    return recordActivity(db, {
      userId: user.id,
      action,
      result: 'succeed',
      topic: 'account',
      ip: origin.ip,
      userAgent: origin.userAgent,
      data,
    });
  }

  /** The account's company; 403 for a personal account, 404 before it is entered. */
  private async own(user: UserRecord): Promise<CompanyRow> {
    this.business(user);
    const company = await findCompany(this.o.db, user.id);
    if (!company) throw new AppError(404, [COMPANY_ERRORS.notFound]);
    return company;
  }

  private business(user: UserRecord): void {
    if (user.account_type !== 'business') throw new AppError(403, [COMPANY_ERRORS.personalAccount]);
  }

  private editable(company: CompanyRow): void {
    if (company.review_state === 'rejected') throw invalid(COMPANY_ERRORS.rejectedFinal);
    if (!EDITABLE.includes(company.review_state)) throw invalid(COMPANY_ERRORS.notEditable);
  }

  private async present(company: CompanyRow): Promise<CompanyResponse> {
    const [representatives, documents] = await Promise.all([
      listRepresentatives(this.o.db, company.id),
      listCompanyDocuments(this.o.db, company.id),
    ]);
    return {
      name: company.name,
      registration_number: company.registration_number,
      country: company.country,
      address: company.address,
      representatives: representatives.map((r) => ({
        name: r.name,
        role: r.role as CompanyResponse['representatives'][number]['role'],
        ownership: r.ownership,
      })),
      review_state: company.review_state,
      review_comment:
        company.review_state === 'retry' || company.review_state === 'rejected'
          ? company.review_comment
          : null,
      documents: documents.map((d) => ({
        id: Number(d.id),
        doc_type: d.doc_type,
        issued_on: d.issued_on,
        file_name: d.file_name,
        content_type: d.mime_type,
        size: d.size_bytes,
        created_at: d.created_at,
      })),
      submitted_at: company.submitted_at,
    };
  }

  /** Runs a provider call; an unreachable or failing provider becomes 503 `resource.kyc.provider_unavailable`. */
  private async provider<T>(work: (p: KycProvider) => Promise<T>): Promise<T> {
    try {
      return await work(this.o.provider);
    } catch (err) {
      if (err instanceof KycProviderError) {
        this.o.log?.warn({ err: err.message }, 'kyc provider call (company) failed');
        throw new AppError(503, [ERRORS.kycProviderUnavailable]);
      }
      throw err;
    }
  }
}

/** The company state each review label sets (the person's labels, `labels.ts`, mapped to the company's states). */
const COMPANY_STATE: Record<string, CompanyRow['review_state']> = {
  initiated: 'draft',
  in_review: 'pending',
  onhold: 'onhold',
  retry: 'retry',
  rejected: 'rejected',
  verified: 'verified',
};

/** True when a webhook is about a company applicant (its type, or the KYB level). */
export function isCompanyWebhook(event: KycWebhook, kybLevelName: string): boolean {
  return event.applicantType === 'company' || event.levelName === kybLevelName;
}

/**
 * Applies a company applicant's webhook in the transaction that recorded it: the company's review state (an
 * older event than the one applied is stale; `applicantCreated` moves nothing, the company is submitted by then),
 * then the holder's level, which needs both the company and the person verified.
 */
export async function applyCompanyWebhook(
  tx: Tx,
  event: KycWebhook,
  nowMs: number,
): Promise<{ outcome: 'applied' | 'stale' | 'ignored' | 'unknown_applicant'; userId: string | null }> {
  const userId = await companyOwnerByApplicant(tx, event.applicantId);
  if (userId === undefined) return { outcome: 'unknown_applicant', userId: null };
  // The same lock order as the person's webhooks: the user, then what changes.
  await lockUser(tx, userId);
  const company = await findCompanyByApplicant(tx, event.applicantId);
  if (!company) return { outcome: 'unknown_applicant', userId: null };
  const label = event.type === 'applicantCreated' ? null : labelFor(event);
  if (!label) return { outcome: 'ignored', userId };
  const atMs = createdAtMs(event.createdAtMs) ?? nowMs;
  if (atMs < Number(company.applied_at_ms)) return { outcome: 'stale', userId };
  const comment =
    event.reviewResult?.reviewAnswer === 'RED'
      ? event.reviewResult.moderationComment?.trim().slice(0, 1000) || null
      : null;
  await setCompanyReview(tx, company.id, COMPANY_STATE[label] ?? 'pending', comment, atMs);
  await settleLevel(tx, userId);
  return { outcome: 'applied', userId };
}
