import { z } from 'zod';
import { ERRORS } from '../errors.ts';

/** Key of the label that carries the identity-verification state (docs/kyc.md#labels). */
export const KYC_LABEL = 'basic-kyc-level';

/** Values of the KYC label, as the provider's webhooks set them. */
export const KYC_LABEL_VALUES = [
  'initiated',
  'in_review',
  'onhold',
  'retry',
  'rejected',
  'verified',
] as const;

/** Values of the `document` label that mean the user must act in /settings (spec: document state error). */
export const DOCUMENT_ERROR_STATES = ['rejected', 'retry'] as const;

/** Profile fields the provider needs before verification (docs/kyc.md#screens, verification-required modal). */
export const KYC_PROFILE_FIELDS = ['gender', 'dob', 'address', 'postcode', 'city', 'country'] as const;

/** True when a profile has every field identity verification needs. */
export function profileComplete(profile: Record<string, unknown> | null | undefined): boolean {
  return KYC_PROFILE_FIELDS.every(
    (f) => typeof profile?.[f] === 'string' && (profile[f] as string).trim() !== '',
  );
}

/** Document types accepted by `POST /resource/documents` (FAQ: identity and address proofs, business documents). */
export const DOCUMENT_TYPES = {
  identity: ['passport', 'identity_card', 'driver_license', 'military_id'],
  address: ['bank_statement', 'utility_bill', 'tax_bill', 'residence_certificate'],
  business: [
    'certificate_of_incorporation',
    'commercial_register_extract',
    'articles_of_association',
    'business_document',
  ],
} as const;
export const ALL_DOCUMENT_TYPES: readonly string[] = Object.values(DOCUMENT_TYPES).flat();

/** Upload limits: JPG, JPEG, PNG or PDF, at most 2 MB each (FAQ); up to 5 files per upload. */
export const DOCUMENT_LIMITS = {
  maxBytes: 2 * 1024 * 1024,
  maxFiles: 5,
  extensions: ['jpg', 'jpeg', 'png', 'pdf'],
} as const;

/** The text fields of a document upload (the files travel beside them). */
export const documentFieldsSchema = z.object({
  doc_type: z
    .string({ error: ERRORS.documentInvalidType })
    .refine((v) => ALL_DOCUMENT_TYPES.includes(v), ERRORS.documentInvalidType),
  doc_number: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,32}$/, ERRORS.documentInvalidNumber)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  doc_expire: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, ERRORS.documentInvalidExpire)
    .refine((v) => !Number.isNaN(Date.parse(v)) && Date.parse(v) > Date.now(), ERRORS.documentInvalidExpire)
    .optional()
    .or(z.literal('').transform(() => undefined)),
});
export type DocumentFields = z.infer<typeof documentFieldsSchema>;

/** `POST /resource/sumsub/applicant_id`. */
export const applicantIdSchema = z.object({
  applicant_id: z
    .string({ error: ERRORS.kycInvalidApplicant })
    .regex(/^[A-Za-z0-9_-]{1,64}$/, ERRORS.kycInvalidApplicant),
});

/** `POST /resource/profiles/net_verify/initiate`: where the provider sends the user back. */
export const netVerifyInitiateSchema = z.object({
  redirectUrl: z
    .string({ error: ERRORS.kycInvalidRedirect })
    .max(2000, ERRORS.kycInvalidRedirect)
    .refine((v) => /^https?:\/\//.test(v) || /^\/(?!\/)/.test(v), ERRORS.kycInvalidRedirect),
});

/** `/resource/profiles/net_verify/success` and `/kyc`: the scan reference returned by initiate. */
export const scanRefSchema = z.object({
  scan_ref: z
    .string({ error: ERRORS.kycMissingScanRef })
    .min(1, ERRORS.kycMissingScanRef)
    .max(100, ERRORS.kycMissingScanRef),
});
