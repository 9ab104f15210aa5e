import type { CompanyInput } from '@exchange/shared';
import type pg from 'pg';
import type { Tx } from '../../db/pool.ts';
import { isoSql } from '../identity/users-repository.ts';

type Db = pg.Pool | Tx;

/** A companies row, as the service reads it. */
export interface CompanyRow {
  id: string;
  user_id: string;
  name: string;
  registration_number: string;
  country: string;
  address: string;
  applicant_id: string | null;
  review_state: 'draft' | 'pending' | 'onhold' | 'retry' | 'rejected' | 'verified';
  review_comment: string | null;
  applied_at_ms: string;
  submitted_at: string | null;
}

/** A company document without its content. */
export interface CompanyDocumentRow {
  id: string;
  doc_type: string;
  issued_on: string;
  file_name: string;
  mime_type: string;
  size_bytes: number;
  provider_doc_id: string | null;
  created_at: string;
}

const COMPANY = `id, user_id, name, registration_number, country, address, applicant_id, review_state, review_comment,
  applied_at_ms, ${isoSql('submitted_at')} as submitted_at`;
const DOCUMENT = `id, doc_type, to_char(issued_on, 'YYYY-MM-DD') as issued_on, file_name, mime_type, size_bytes,
  provider_doc_id, ${isoSql('created_at')} as created_at`;

/** The company of a user (`lock`: for update, inside a transaction), or undefined. */
export async function findCompany(db: Db, userId: string, lock = false): Promise<CompanyRow | undefined> {
  return (
    await db.query<CompanyRow>(
      `select ${COMPANY} from companies where user_id = $1${lock ? ' for update' : ''}`,
      [userId],
    )
  ).rows[0];
}

/** The company of a provider applicant, locked for the webhook that changes it. */
/** The account whose company has the provider applicant `applicantId`, or undefined. */
export async function companyOwnerByApplicant(tx: Tx, applicantId: string): Promise<string | undefined> {
  const row = (
    await tx.query<{ user_id: string }>('select user_id from companies where applicant_id = $1', [
      applicantId,
    ])
  ).rows[0];
  return row === undefined ? undefined : String(row.user_id);
}

export async function findCompanyByApplicant(tx: Tx, applicantId: string): Promise<CompanyRow | undefined> {
  return (
    await tx.query<CompanyRow>(`select ${COMPANY} from companies where applicant_id = $1 for update`, [
      applicantId,
    ])
  ).rows[0];
}

/** Inserts or replaces the company's details and its people (the caller checked it may change). */
export async function saveCompany(tx: Tx, userId: string, input: CompanyInput): Promise<void> {
  const id = (
    await tx.query<{ id: string }>(
      `insert into companies (user_id, name, registration_number, country, address) values ($1, $2, $3, $4, $5)
       on conflict (user_id) do update set name = excluded.name, registration_number = excluded.registration_number,
         country = excluded.country, address = excluded.address, updated_at = now()
       returning id`,
      [userId, input.name, input.registration_number, input.country, input.address],
    )
  ).rows[0]!.id;
  await tx.query('delete from company_representatives where company_id = $1', [id]);
  for (const [position, r] of input.representatives.entries()) {
    await tx.query(
      `insert into company_representatives (company_id, position, name, role, ownership) values ($1, $2, $3, $4, $5)`,
      [id, position, r.name, r.role, r.ownership],
    );
  }
}

/** The company's people in the order they were entered; shares as text (numeric, never a float). */
export async function listRepresentatives(db: Db, companyId: string) {
  return (
    await db.query<{ name: string; role: string; ownership: string | null }>(
      `select name, role, trim_scale(ownership)::text as ownership from company_representatives
       where company_id = $1 order by position`,
      [companyId],
    )
  ).rows;
}

export async function insertCompanyDocument(
  db: Db,
  doc: {
    companyId: string;
    issuedOn: string;
    fileName: string;
    mimeType: string;
    sizeBytes: number;
    sealed: Buffer;
  },
): Promise<CompanyDocumentRow> {
  return (
    await db.query<CompanyDocumentRow>(
      `insert into company_documents (company_id, doc_type, issued_on, file_name, mime_type, size_bytes, content_sealed)
       values ($1, 'register_extract', $2, $3, $4, $5, $6) returning ${DOCUMENT}`,
      [doc.companyId, doc.issuedOn, doc.fileName, doc.mimeType, doc.sizeBytes, doc.sealed],
    )
  ).rows[0]!;
}

export async function listCompanyDocuments(db: Db, companyId: string): Promise<CompanyDocumentRow[]> {
  return (
    await db.query<CompanyDocumentRow>(
      `select ${DOCUMENT} from company_documents where company_id = $1 order by id`,
      [companyId],
    )
  ).rows;
}

/** The sealed content of the documents not yet filed with the provider. */
export async function unfiledDocuments(db: Db, companyId: string) {
  return (
    await db.query<CompanyDocumentRow & { content_sealed: Buffer }>(
      `select ${DOCUMENT}, content_sealed from company_documents
       where company_id = $1 and provider_doc_id is null order by id`,
      [companyId],
    )
  ).rows;
}

export async function markDocumentFiled(db: Db, id: string, providerDocId: string): Promise<void> {
  await db.query('update company_documents set provider_doc_id = $2 where id = $1', [id, providerDocId]);
}

/** Remembers the provider's company applicant. */
export async function saveCompanyApplicant(db: Db, companyId: string, applicantId: string): Promise<void> {
  await db.query('update companies set applicant_id = $2, updated_at = now() where id = $1', [
    companyId,
    applicantId,
  ]);
}

/** The company is submitted: under review until the provider's webhook says otherwise. */
export async function markSubmitted(db: Db, companyId: string): Promise<void> {
  await db.query(
    `update companies set review_state = 'pending', review_comment = null, submitted_at = now(), updated_at = now()
     where id = $1`,
    [companyId],
  );
}

/** Applies a review state from a provider webhook. */
export async function setCompanyReview(
  tx: Tx,
  companyId: string,
  state: CompanyRow['review_state'],
  comment: string | null,
  atMs: number,
): Promise<void> {
  await tx.query(
    `update companies set review_state = $2, review_comment = $3, applied_at_ms = $4, updated_at = now()
     where id = $1`,
    [companyId, state, comment, atMs],
  );
}
