import type { cardHolderQueueItemResponse, kycQueueItemResponse } from '@exchange/shared';
import type pg from 'pg';
import type { z } from 'zod';
import type { Tx } from '../../db/pool.ts';
import { COMPANY_APPLICANT_SUFFIX } from '../business/company-service.ts';
import { isoSql } from '../identity/users-repository.ts';

/** The SQL of the console's review queues: the people behind the KYC provider's waiting applicants, and card holders. */

type Db = pg.Pool | Tx;

/** An applicant waiting for an identity review. */
export type KycQueueItem = z.infer<typeof kycQueueItemResponse>;

/** A card holder waiting for the issuer's review. */
export type CardHolderQueueItem = z.infer<typeof cardHolderQueueItemResponse>;

/** What the exchange itself knows of an applicant: the user, their latest profile and, for a company, the company. */
export type ApplicantPerson = Pick<
  KycQueueItem,
  'uid' | 'email' | 'level' | 'account_type' | 'first_name' | 'last_name' | 'dob' | 'country' | 'company'
> & { applicant_id: string };

/**
 * The users behind the provider's applicants (a uid, or `<uid>-kyb` for a business account's company): each with
 * their latest profile and, for a company applicant, the company this exchange filed under that applicant (its
 * people and its newest register extract). Applicants of no user here are left out.
 */
export async function applicantPeople(
  db: Db,
  applicants: { id: string; external_user_id: string; applicant_type: 'individual' | 'company' }[],
): Promise<ApplicantPerson[]> {
  const rows = await db.query<ApplicantPerson>(
    `select x.applicant_id, u.uid, u.email, u.level, u.account_type,
       p.first_name, p.last_name, p.dob::text, p.country,
       case when x.kind = 'company' then (
         select json_build_object('name', c.name, 'registration_number', c.registration_number, 'country', c.country,
           'address', c.address,
           'register_extract_issued_on', (select to_char(max(cd.issued_on), 'YYYY-MM-DD') from company_documents cd
             where cd.company_id = c.id),
           'representatives', coalesce((select json_agg(json_build_object('name', r.name, 'role', r.role,
             'ownership', trim_scale(r.ownership)::text) order by r.position) from company_representatives r
             where r.company_id = c.id), '[]'))
         from companies c where c.applicant_id = x.applicant_id) end as company
     from unnest($1::text[], $2::text[], $3::text[]) as x(applicant_id, external_user_id, kind)
     join users u on u.uid = x.external_user_id
       or (x.kind = 'company' and u.uid || '${COMPANY_APPLICANT_SUFFIX}' = x.external_user_id)
     left join lateral (select * from profiles where user_id = u.id order by id desc limit 1) p on true`,
    [
      applicants.map((a) => a.id),
      applicants.map((a) => a.external_user_id),
      applicants.map((a) => a.applicant_type),
    ],
  );
  return rows.rows;
}

/** Card holders `under_review`, oldest submission first, with their documents (not their images). */
export async function cardHolderQueueItems(db: Db): Promise<CardHolderQueueItem[]> {
  const rows = await db.query<CardHolderQueueItem>(
    `select u.uid, u.email, h.first_name, h.last_name, h.country, h.id_type, h.status,
       ${isoSql('h.submitted_at')} as submitted_at,
       coalesce((select json_agg(json_build_object('id', d.id, 'type', d.doc_type, 'mime_type', d.mime_type)
         order by d.id) from card_holder_documents d where d.holder_id = h.id), '[]') as documents
     from card_holders h join users u on u.id = h.user_id
     where h.status = 'under_review' order by h.submitted_at, h.id`,
  );
  return rows.rows;
}

/** A document of the card holder of the user with this uid, its image sealed with the server key, or undefined. */
export async function sealedHolderDocument(
  db: Db,
  uid: string,
  id: number,
): Promise<{ mime_type: string; content_sealed: Buffer } | undefined> {
  return (
    await db.query<{ mime_type: string; content_sealed: Buffer }>(
      `select d.mime_type, d.content_sealed from card_holder_documents d join card_holders h on h.id = d.holder_id
       join users u on u.id = h.user_id where u.uid = $1 and d.id = $2`,
      [uid, id],
    )
  ).rows[0];
}

/** The issuer's token and the status of the card holder of the user with this uid, or undefined. */
export async function holderOfUid(
  db: Db,
  uid: string,
): Promise<{ issuer_user_token: string; status: string } | undefined> {
  return (
    await db.query<{ issuer_user_token: string; status: string }>(
      `select h.issuer_user_token, h.status from card_holders h join users u on u.id = h.user_id where u.uid = $1`,
      [uid],
    )
  ).rows[0];
}
