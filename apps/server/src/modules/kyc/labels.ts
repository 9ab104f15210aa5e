import { z } from 'zod';

/** Values of the `basic-kyc-level` label, as the provider's webhooks move it (docs/kyc.md#labels mapping). */
export type KycLabel = 'initiated' | 'in_review' | 'onhold' | 'retry' | 'rejected' | 'verified';

/** The label key the web app maps to Verified, Under review, … (docs/kyc.md#labels). */
export const KYC_LABEL_KEY = 'basic-kyc-level';

/**
 * The `document` label that goes with each KYC label: `verified` makes the user level 3 (docs/platform.md#wire-contract);
 * `rejected` and `retry` are the error states that send the user to /settings; none while initiated.
 */
export const DOCUMENT_LABEL: Record<KycLabel, string | null> = {
  initiated: null,
  in_review: 'pending',
  onhold: 'pending',
  retry: 'retry',
  rejected: 'rejected',
  verified: 'verified',
};

/** The webhook body, as far as this code reads it (Sumsub "user verification" webhooks). */
export const webhookSchema = z.looseObject({
  type: z.string().min(1),
  correlationId: z.string().min(1),
  applicantId: z.string().min(1),
  externalUserId: z.string().optional(),
  /** `individual` or `company` (a KYB applicant). */
  applicantType: z.string().optional(),
  levelName: z.string().optional(),
  reviewStatus: z.string().optional(),
  createdAtMs: z.union([z.string(), z.number()]).optional(),
  reviewResult: z
    .looseObject({
      reviewAnswer: z.string().optional(),
      reviewRejectType: z.string().optional(),
      moderationComment: z.string().optional(),
    })
    .optional(),
});
export type KycWebhook = z.infer<typeof webhookSchema>;

/** Epoch milliseconds of `createdAtMs`: a number, digits, or Sumsub's UTC `YYYY-MM-DD HH:mm:ss.SSS`. */
export function createdAtMs(value: string | number | undefined): number | null {
  if (value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : null;
  if (/^\d{10,16}$/.test(value)) return Number(value);
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?Z?$/.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s, ms] = m;
  return Date.UTC(+y!, +mo! - 1, +d!, +h!, +mi!, +s!, Number((ms ?? '0').padEnd(3, '0')));
}

/** Sumsub's `createdAtMs` text for an instant (UTC, millisecond precision). */
export function formatCreatedAtMs(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
}

/** The label a webhook sets, or null for an event that does not move it. */
export function labelFor(event: Pick<KycWebhook, 'type' | 'reviewResult'>): KycLabel | null {
  switch (event.type) {
    case 'applicantCreated':
    case 'applicantReset':
      return 'initiated';
    case 'applicantPending':
      return 'in_review';
    case 'applicantOnHold':
      return 'onhold';
    case 'applicantReviewed': {
      const answer = event.reviewResult?.reviewAnswer;
      if (answer === 'GREEN') return 'verified';
      if (answer === 'RED') return event.reviewResult?.reviewRejectType === 'RETRY' ? 'retry' : 'rejected';
      return null;
    }
    default:
      return null;
  }
}

/** What to do with one authentic, first-seen webhook. */
export type Decision =
  | {
      outcome: 'applied';
      label: KycLabel;
      document: string | null;
      atMs: number;
      /** The reviewer's words to the user on a rejection or a retry (at most 1,000 characters kept). */
      comment: string | null;
    }
  | { outcome: 'stale' | 'other_level' | 'ignored' };

/**
 * Decides a webhook against the configured level and the newest event already applied: events of another
 * level, events older than the applied one and events that do not move the label change nothing.
 */
export function decide(event: KycWebhook, levelName: string, appliedAtMs: number, nowMs: number): Decision {
  if (event.levelName !== undefined && event.levelName !== levelName) return { outcome: 'other_level' };
  const label = labelFor(event);
  if (!label) return { outcome: 'ignored' };
  const atMs = createdAtMs(event.createdAtMs) ?? nowMs;
  if (atMs < appliedAtMs) return { outcome: 'stale' };
  const comment =
    event.reviewResult?.reviewAnswer === 'RED'
      ? (event.reviewResult.moderationComment?.trim().slice(0, 1000) ?? '')
      : '';
  return { outcome: 'applied', label, document: DOCUMENT_LABEL[label], atMs, comment: comment || null };
}
