import type pg from 'pg';
import type { KycDeskAction, KycReviewDesk } from '../../adapters/simulators.ts';
import { COMPANY_APPLICANT_SUFFIX } from '../business/company-service.ts';
import { findUserByEmail } from '../identity/users-repository.ts';
import { kycStatusLabels } from './repository.ts';

const ACTIONS: Record<string, KycDeskAction> = {
  approve: 'approve',
  reject: 'reject',
  retry: 'retry',
  hold: 'hold',
  reset: 'reset',
};

const REFUSALS: Record<string, string> = {
  not_found: 'has no applicant at the simulator',
  final: 'was rejected for good (FINAL); only `kyc reset` reopens it',
  not_submitted: 'has not submitted documents yet',
  already_reviewed: 'was already reviewed',
};

/**
 * `npm run cli -- kyc approve|reject|retry|hold|reset|status <email>`: the simulator's reviewer (its desk); with a
 * `company-` prefix (`kyc company-approve <email>`) it decides a business account's company (KYB) instead. The
 * decision is queued as a webhook; the running app delivers it, signed, to itself, as Sumsub would.
 */
export async function kycCommand(
  db: pg.Pool,
  desk: KycReviewDesk,
  command: string,
  email: string,
): Promise<{ ok: boolean; message: string }> {
  const user = await findUserByEmail(db, email);
  if (!user) return { ok: false, message: `no user with email ${email}` };
  // `company-approve` etc.: the same decisions on a business account's company applicant (`<uid>-kyb`).
  const company = command.startsWith('company-');
  if (company) command = command.slice('company-'.length);
  const applicant = await desk.applicant(company ? `${user.uid}${COMPANY_APPLICANT_SUFFIX}` : user.uid);
  if (command === 'status') {
    const labels = await kycStatusLabels(db, user.id);
    return {
      ok: true,
      message: JSON.stringify(
        {
          email: user.email,
          level: user.level,
          labels: Object.fromEntries(labels.map((l) => [l.key, l.value])),
          applicant: applicant
            ? {
                id: applicant.id,
                level_name: applicant.level_name,
                review_status: applicant.review_status,
                review_answer: applicant.review_answer,
                reject_type: applicant.reject_type,
              }
            : null,
        },
        null,
        2,
      ),
    };
  }
  const action = ACTIONS[command];
  if (!action)
    return {
      ok: false,
      message: `unknown kyc command: ${command} (approve, reject, retry, hold, reset, status)`,
    };
  if (!applicant) return { ok: false, message: `${email} ${REFUSALS.not_found}` };
  const result = await desk.decide(applicant.id, action);
  if (typeof result === 'string') return { ok: false, message: `${email} ${REFUSALS[result] ?? result}` };
  const answer = result.review_answer
    ? ` ${result.review_answer}${result.reject_type ? ` ${result.reject_type}` : ''}`
    : '';
  return {
    ok: true,
    message: `${email}: applicant ${result.id} is ${result.review_status}${answer}; the webhook is queued for the running app`,
  };
}
