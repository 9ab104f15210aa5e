import { ADMIN_ERRORS } from '@exchange/shared';
import type pg from 'pg';
import type { KycReviewDesk } from '../../adapters/simulators.ts';
import { AppError } from '../../http/errors.ts';
import { COMPANY_APPLICANT_SUFFIX } from '../business/company-service.ts';
import { refuseOwnAccount, type Staff } from './access.ts';
import { applicantPeople, type KycQueueItem } from './reviews-repository.ts';
import { recordStaffAction } from './trail.ts';

/**
 * Applicants waiting for a review (submitted to the provider, not decided), the longest waiting first, with the
 * documents the provider holds: persons (`kind: individual`) and the companies of business accounts (`kind:
 * company`, the provider's company applicant `<uid>-kyb`, with the company, its people and the representative's
 * profile). The queue is the provider's reviewer's desk (the KYC simulator's, asked through its port; the exchange
 * adds what it knows of each user); reviews go there too (as the CLI's `kyc approve`), and its signed webhook then
 * moves the user's labels, company and level, as it would from Sumsub. With Sumsub (no simulator) the queue and the
 * reviews are in its dashboard, and this one is empty.
 */
export async function kycQueue(db: pg.Pool, desk: KycReviewDesk | undefined): Promise<KycQueueItem[]> {
  if (!desk) return [];
  const waiting = await desk.waiting();
  if (waiting.length === 0) return [];
  const people = new Map((await applicantPeople(db, waiting)).map((p) => [p.applicant_id, p]));
  return waiting.flatMap((a) => {
    const person = people.get(a.id);
    if (!person) return [];
    return [
      {
        ...person,
        kind: a.applicant_type,
        review_status: a.review_status,
        submitted_at: a.submitted_at,
        documents: a.documents,
      },
    ];
  });
}

/**
 * A document image of an applicant in the queue, opened at the simulator's desk: served only to staff, never
 * cached. With Sumsub (no simulator) the documents are in its dashboard.
 */
export async function kycDocument(desk: KycReviewDesk | undefined, uid: string, id: number) {
  const image = desk ? await desk.document(uid, id) : undefined;
  if (!image) throw new AppError(404, [ADMIN_ERRORS.userNotFound]);
  return image;
}

/**
 * Approves, rejects for good, or asks the applicant to retry, with the reason in the trail (in the decision's
 * transaction); a rejection's or a retry's reason is also the comment the applicant sees. `kind: company`
 * decides a business account's company instead of its holder's identity. Never one's own identity or company
 * (403 `admin.user.own_account`).
 */
export async function reviewApplicant(
  desk: KycReviewDesk | undefined,
  staff: Staff,
  uid: string,
  decision: 'approve' | 'reject' | 'retry',
  reason: string,
  kind: 'individual' | 'company' = 'individual',
) {
  // A business account's company is its holder's case as much as their identity: never one's own either.
  refuseOwnAccount(staff, uid);
  // With Sumsub (no simulator) the reviews are made in its dashboard: no applicant is found here.
  if (!desk) throw new AppError(404, [ADMIN_ERRORS.userNotFound]);
  const applicant = await desk.applicant(kind === 'company' ? `${uid}${COMPANY_APPLICANT_SUFFIX}` : uid);
  if (applicant && applicant.applicant_type !== kind) throw new AppError(404, [ADMIN_ERRORS.userNotFound]);
  if (!applicant) throw new AppError(404, [ADMIN_ERRORS.userNotFound]);
  // The reason of a rejection or a retry goes to the applicant (the provider's comment to them).
  const comment = decision === 'approve' ? null : reason;
  const result = await desk.decide(applicant.id, decision, comment, (tx, before, after) =>
    recordStaffAction(tx, staff, kind === 'company' ? `kyc.company.${decision}` : `kyc.${decision}`, uid, {
      before: { review_status: before.review_status },
      after: { review_status: after.review_status, review_answer: after.review_answer, reason },
    }),
  );
  if (typeof result === 'string') throw new AppError(422, [ADMIN_ERRORS.kycNotReviewable]);
  return { uid, kind, review_status: result.review_status, review_answer: result.review_answer };
}
