import { z } from 'zod';
import { staffReason } from './admin.ts';

/**
 * Sanctions screening (issue 33, item 3): the names of a customer, their company and its people, and their
 * withdrawal beneficiaries are screened against the imported EU consolidated list; a hit at or above the threshold
 * freezes new withdrawals and transfers out until compliance decides it in the console.
 */

/** Error codes of sanctions screening. */
export const SANCTIONS_ERRORS = {
  /**
   * A screening hit on one of the customer's names waits for compliance, or compliance confirmed it: new
   * withdrawals, bank payouts, mass payouts and transfers to other users are refused (403).
   */
  frozen: 'account.withdraw.sanctions_review',
  /** No such hit (404). */
  hitNotFound: 'admin.sanctions.hit_not_found',
  /** The hit was decided already (422). */
  alreadyDecided: 'admin.sanctions.already_decided',
} as const;

/** What kind of name matched: the customer's own, their company's, a representative or owner's, a beneficiary's. */
export const SANCTIONS_SUBJECT_KINDS = ['customer', 'company', 'representative', 'beneficiary'] as const;
export type SanctionsSubjectKind = (typeof SANCTIONS_SUBJECT_KINDS)[number];

/** `GET /admin/sanctions/hits`: the open hits (default), or the decided ones, or all. */
export const adminSanctionsHitsQuery = z.object({
  state: z.enum(['open', 'false_positive', 'confirmed', 'all']).default('open'),
});

/** `POST /admin/sanctions/hits/:id/decide`: a false positive (unfreezes) or confirmed (stays frozen), and why. */
export const decideSanctionsHitSchema = z.object({
  decision: z.enum(['false_positive', 'confirmed']),
  reason: staffReason,
});
export type DecideSanctionsHitInput = z.infer<typeof decideSanctionsHitSchema>;

/** One screening hit in the console. */
export const adminSanctionsHitResponse = z
  .object({
    id: z.number().int(),
    uid: z.string(),
    email: z.string(),
    subject_kind: z.enum(SANCTIONS_SUBJECT_KINDS),
    /** The customer's name that matched, as written. */
    subject_name: z.string(),
    /** The list entry: its logical id, EU reference, the name it matched on, person or enterprise, regulation. */
    entry_logical_id: z.string(),
    entry_reference: z.string().nullable(),
    entry_name: z.string(),
    entry_subject_type: z.string(),
    entry_regulation: z.string().nullable(),
    /** 0..100. */
    score: z.number().int(),
    state: z.enum(['open', 'false_positive', 'confirmed']),
    decided_by: z.string().nullable(),
    decided_at: z.string().nullable(),
    reason: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'AdminSanctionsHit' });
export type AdminSanctionsHit = z.infer<typeof adminSanctionsHitResponse>;

/** `GET /admin/sanctions/list`: the current list's import (null before the first one) and the match threshold. */
export const adminSanctionsListResponse = z
  .object({
    list: z
      .object({
        file_name: z.string(),
        sha256: z.string(),
        generated_at: z.string().nullable(),
        entities: z.number().int(),
        names: z.number().int(),
        imported_at: z.string(),
      })
      .nullable(),
    /** A name scoring at or above it (0..100) is a hit (`SANCTIONS_MATCH_THRESHOLD`). */
    threshold: z.number().int(),
  })
  .meta({ id: 'AdminSanctionsList' });
export type AdminSanctionsList = z.infer<typeof adminSanctionsListResponse>;
