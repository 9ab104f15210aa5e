import { z } from 'zod';

/**
 * Error codes of business accounts (issue 31, part 3): the company, its representatives and its documents, under
 * `/resource/company`. Each has a message in the web app's catalogue.
 */
export const COMPANY_ERRORS = {
  /** Registration: `account_type` is neither `personal` nor `business` (422). */
  invalidAccountType: 'identity.user.invalid_account_type',
  /** A personal account has no company: only a business account may hold one (403). */
  personalAccount: 'resource.company.personal_account',
  /** The account has not entered its company yet (404). */
  notFound: 'resource.company.not_found',
  /** The company is under review or verified: its details and documents can no longer change (422). */
  notEditable: 'resource.company.not_editable',
  /** Company name: 2-120 characters (422). */
  invalidName: 'resource.company.invalid_name',
  /** Registration number: 2-40 letters, digits, spaces, dots, slashes or hyphens (422). */
  invalidRegistrationNumber: 'resource.company.invalid_registration_number',
  /** Country of registration: ISO 3166 alpha-3 (three capital letters) (422). */
  invalidCountry: 'resource.company.invalid_country',
  /** Registered address: 5-200 characters (422). */
  invalidAddress: 'resource.company.invalid_address',
  /** Representatives: 1 to 20 of them (422). */
  invalidRepresentatives: 'resource.company.invalid_representatives',
  /** A representative's name: 2-80 characters (422). */
  invalidRepresentativeName: 'resource.company.invalid_representative_name',
  /** A representative's role: director, representative, shareholder or ubo (422). */
  invalidRepresentativeRole: 'resource.company.invalid_representative_role',
  /** An ownership share: a percentage from 0 to 100 with at most 4 decimals, as a string (422). */
  invalidOwnership: 'resource.company.invalid_ownership',
  /** The ownership shares add up to more than 100 % (422). */
  ownershipOverHundred: 'resource.company.ownership_over_100',
  /** Someone owns more than 25 % (25 % plus one share) but is not listed as a beneficial owner (`ubo`) (422). */
  ownerNotBeneficial: 'resource.company.owner_not_beneficial',
  /** A beneficial owner (`ubo`) must own more than 25 % (422). */
  beneficialOwnerShare: 'resource.company.beneficial_owner_share',
  /** No director or representative acts for the company (422). */
  representativeMissing: 'resource.company.representative_missing',
  /** Register extract: the issue date is missing or not a date (YYYY-MM-DD) (422). */
  extractInvalidDate: 'resource.company.register_extract_invalid_date',
  /** Register extract: issued in the future (422). */
  extractFutureDate: 'resource.company.register_extract_future_date',
  /** Register extract: issued more than one year ago; a fresh extract is needed (422). */
  extractOutdated: 'resource.company.register_extract_outdated',
  /** Submission: no commercial register extract has been uploaded (422). */
  extractMissing: 'resource.company.register_extract_missing',
  /** The company verification was rejected for good; contact support (422). */
  rejectedFinal: 'resource.company.rejected_final',
} as const;

/** Account types offered at registration (the FAQ: Personal and Business). */
export const ACCOUNT_TYPES = ['personal', 'business'] as const;
export type AccountTypeName = (typeof ACCOUNT_TYPES)[number];

/** `account_type` of the registration: optional, personal when absent (Barong clients send none). */
export const accountTypeField = z
  .enum(ACCOUNT_TYPES, { error: COMPANY_ERRORS.invalidAccountType })
  .optional()
  .default('personal');

/** Roles of a company's people, as Sumsub's company beneficiaries name them; `ubo` is a beneficial owner. */
export const REPRESENTATIVE_ROLES = ['director', 'representative', 'shareholder', 'ubo'] as const;

/** Beneficial ownership starts above this share (AML policy: 25 % plus one share), in percent. */
export const BENEFICIAL_OWNER_THRESHOLD = '25';

/** A percentage as a string: 0 to 100, at most 4 decimals. */
const PERCENT = /^(100(\.0{1,4})?|[1-9]?\d(\.\d{1,4})?)$/;

/** A percentage string in ten-thousandths of a percent, so shares compare and add without a float. */
export function percentUnits(value: string): bigint {
  const [whole = '0', fraction = ''] = value.split('.');
  return BigInt(whole) * 10_000n + BigInt(fraction.padEnd(4, '0') || '0');
}

const trimmed = (min: number, max: number, code: string) =>
  z
    .string({ error: code })
    .transform((v) => v.trim())
    .refine((v) => v.length >= min && v.length <= max, code);

/** One person of the company: a director or representative acts for it; shareholders and `ubo`s own it. */
export const representativeSchema = z.object({
  name: trimmed(2, 80, COMPANY_ERRORS.invalidRepresentativeName),
  role: z.enum(REPRESENTATIVE_ROLES, { error: COMPANY_ERRORS.invalidRepresentativeRole }),
  ownership: z
    .string({ error: COMPANY_ERRORS.invalidOwnership })
    .regex(PERCENT, COMPANY_ERRORS.invalidOwnership)
    .nullable()
    .optional()
    .transform((v) => v ?? null),
});
export type RepresentativeInput = z.infer<typeof representativeSchema>;

/**
 * `PUT /resource/company`: the company and its people. Someone owning more than 25 % must be listed as a
 * beneficial owner (`ubo`), a `ubo` must own more than 25 %, the shares add up to at most 100 %, and a director or
 * representative acts for the company.
 */
export const companySchema = z
  .object({
    name: trimmed(2, 120, COMPANY_ERRORS.invalidName),
    registration_number: z
      .string({ error: COMPANY_ERRORS.invalidRegistrationNumber })
      .transform((v) => v.trim())
      .refine((v) => /^[A-Za-z0-9][A-Za-z0-9 ./-]{1,39}$/.test(v), COMPANY_ERRORS.invalidRegistrationNumber),
    country: z
      .string({ error: COMPANY_ERRORS.invalidCountry })
      .regex(/^[A-Z]{3}$/, COMPANY_ERRORS.invalidCountry),
    address: trimmed(5, 200, COMPANY_ERRORS.invalidAddress),
    representatives: z
      .array(representativeSchema, { error: COMPANY_ERRORS.invalidRepresentatives })
      .min(1, COMPANY_ERRORS.invalidRepresentatives)
      .max(20, COMPANY_ERRORS.invalidRepresentatives),
  })
  .superRefine((value, ctx) => {
    const threshold = percentUnits(BENEFICIAL_OWNER_THRESHOLD);
    let total = 0n;
    value.representatives.forEach((r, i) => {
      // A malformed share has its own error already (the refinement runs past non-fatal field errors).
      if (r.ownership !== null && !PERCENT.test(r.ownership)) return;
      const share = r.ownership === null ? 0n : percentUnits(r.ownership);
      total += share;
      if (share > threshold && r.role !== 'ubo')
        ctx.addIssue({
          code: 'custom',
          path: ['representatives', i, 'role'],
          message: COMPANY_ERRORS.ownerNotBeneficial,
        });
      if (r.role === 'ubo' && share <= threshold)
        ctx.addIssue({
          code: 'custom',
          path: ['representatives', i, 'ownership'],
          message: COMPANY_ERRORS.beneficialOwnerShare,
        });
    });
    if (total > 100n * 10_000n)
      ctx.addIssue({
        code: 'custom',
        path: ['representatives'],
        message: COMPANY_ERRORS.ownershipOverHundred,
      });
    if (!value.representatives.some((r) => r.role === 'director' || r.role === 'representative'))
      ctx.addIssue({
        code: 'custom',
        path: ['representatives'],
        message: COMPANY_ERRORS.representativeMissing,
      });
  });
export type CompanyInput = z.infer<typeof companySchema>;

/** Days a register extract stays acceptable after its issue date (AML policy: under one year old). */
export const REGISTER_EXTRACT_MAX_AGE_DAYS = 365;

/**
 * The issue date of a register extract against `today` (YYYY-MM-DD, UTC): null when acceptable, else the error
 * code (not a date, in the future, older than one year).
 */
export function registerExtractDateError(issuedOn: string, today: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(issuedOn) || Number.isNaN(Date.parse(`${issuedOn}T00:00:00Z`)))
    return COMPANY_ERRORS.extractInvalidDate;
  if (new Date(`${issuedOn}T00:00:00Z`).toISOString().slice(0, 10) !== issuedOn)
    return COMPANY_ERRORS.extractInvalidDate;
  if (issuedOn > today) return COMPANY_ERRORS.extractFutureDate;
  const oldest = new Date(Date.parse(`${today}T00:00:00Z`) - REGISTER_EXTRACT_MAX_AGE_DAYS * 86_400_000)
    .toISOString()
    .slice(0, 10);
  return issuedOn < oldest ? COMPANY_ERRORS.extractOutdated : null;
}

/** The text fields of `POST /resource/company/documents` (the file travels beside them). */
export const companyDocumentFieldsSchema = z.object({
  doc_type: z.literal('register_extract', { error: COMPANY_ERRORS.extractMissing }),
  issued_on: z.string({ error: COMPANY_ERRORS.extractInvalidDate }),
});

/** Where a company's verification stands (`review_state`). */
export const COMPANY_REVIEW_STATES = ['draft', 'pending', 'onhold', 'retry', 'rejected', 'verified'] as const;

/** `GET`/`PUT /resource/company`. */
export const companyResponse = z.object({
  name: z.string(),
  registration_number: z.string(),
  country: z.string(),
  address: z.string(),
  representatives: z.array(
    z.object({ name: z.string(), role: z.enum(REPRESENTATIVE_ROLES), ownership: z.string().nullable() }),
  ),
  review_state: z.enum(COMPANY_REVIEW_STATES),
  review_comment: z.string().nullable(),
  documents: z.array(
    z.object({
      id: z.number().int(),
      doc_type: z.string(),
      issued_on: z.string(),
      file_name: z.string(),
      content_type: z.string(),
      size: z.number().int(),
      created_at: z.string(),
    }),
  ),
  submitted_at: z.string().nullable(),
});
export type CompanyResponse = z.infer<typeof companyResponse>;
