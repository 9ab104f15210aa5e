import { z } from 'zod';

/**
 * The travel rule (Regulation (EU) 2023/1113): beneficiary information of a saved address and the proof that a
 * self-hosted address is the customer's. The web app maps each code to its message (i18n `account.*`).
 */
export const TRAVEL_RULE_ERRORS = {
  /** The beneficiary's name (the person or company the address belongs to) is missing (the web form requires it). */
  beneficiaryNameRequired: 'account.beneficiary.missing_beneficiary_name',
  /** The beneficiary's name is not text of 1 to 140 characters (422). */
  beneficiaryNameInvalid: 'account.beneficiary.invalid_beneficiary_name',
  /** Whether the address is hosted by a provider or self-hosted is missing (the web form requires it). */
  hostingRequired: 'account.beneficiary.missing_hosting',
  /** `hosting` is neither `provider` nor `self_hosted` (422). */
  hostingInvalid: 'account.beneficiary.invalid_hosting',
  /** `hosting` is `provider` but no provider is named (422). */
  providerRequired: 'account.beneficiary.missing_provider',
  /** The provider is not in the directory, or one is named for a self-hosted address (422). */
  providerInvalid: 'account.beneficiary.invalid_provider',
  /** A withdrawal above the threshold to a self-hosted address whose control was not proved yet (422). */
  addressUnverified: 'account.withdraw.address_unverified',
  /** Proof asked for an address that is not self-hosted (422). */
  proofNotNeeded: 'account.beneficiary.proof_not_needed',
  /** The address's format has no message signing we verify (e.g. P2WSH) (422). */
  proofUnsupported: 'account.beneficiary.proof_unsupported',
  /** The challenge is unknown, someone else's, for another address, used, expired, or out of attempts (422). */
  challengeInvalid: 'account.beneficiary.invalid_challenge',
  /** The signature is missing (422). */
  signatureRequired: 'account.beneficiary.missing_signature',
  /** The signature does not verify for this address and this challenge (422). */
  signatureInvalid: 'account.beneficiary.invalid_signature',
} as const;

/** Where a saved address is held: at another crypto-asset service provider, or in the customer's own wallet. */
export const HOSTING = ['provider', 'self_hosted'] as const;
export type Hosting = (typeof HOSTING)[number];

/**
 * The travel-rule fields of `POST /account/beneficiaries`, optional on the wire (clients that predate them keep
 * working); the web form requires them ({@link requireBeneficiaryInfo}). The provider is an id of the directory
 * (`GET /account/travel_rule/providers`), checked by the server.
 */
export const beneficiaryInfoFields = {
  beneficiary_name: z
    .string({ error: TRAVEL_RULE_ERRORS.beneficiaryNameInvalid })
    .trim()
    .min(1, TRAVEL_RULE_ERRORS.beneficiaryNameRequired)
    .max(140, TRAVEL_RULE_ERRORS.beneficiaryNameInvalid)
    .optional(),
  hosting: z.enum(HOSTING, { error: TRAVEL_RULE_ERRORS.hostingInvalid }).optional(),
  provider_id: z
    .string({ error: TRAVEL_RULE_ERRORS.providerInvalid })
    .trim()
    .max(64, TRAVEL_RULE_ERRORS.providerInvalid)
    .optional(),
};

/** The form's rule on top of the wire's: a name and where the address is held are required. */
export function requireBeneficiaryInfo(
  value: { beneficiary_name?: string; hosting?: Hosting; provider_id?: string },
  ctx: z.RefinementCtx,
): void {
  if (!value.beneficiary_name)
    ctx.addIssue({
      code: 'custom',
      message: TRAVEL_RULE_ERRORS.beneficiaryNameRequired,
      path: ['beneficiary_name'],
    });
  if (!value.hosting)
    ctx.addIssue({ code: 'custom', message: TRAVEL_RULE_ERRORS.hostingRequired, path: ['hosting'] });
  if (value.hosting === 'provider' && !value.provider_id)
    ctx.addIssue({ code: 'custom', message: TRAVEL_RULE_ERRORS.providerRequired, path: ['provider_id'] });
}

/** A provider of the directory, as listed to the address book. */
export const travelRuleProviderResponse = z
  .object({
    id: z.string(),
    name: z.string(),
    /** Its Legal Entity Identifier or other registry identifier, when known. */
    lei: z.string().nullable(),
  })
  .meta({ id: 'TravelRuleProvider' });
export type TravelRuleProvider = z.infer<typeof travelRuleProviderResponse>;

/** `POST /account/beneficiaries/{id}/ownership_challenge`: the message to sign with the address. */
export const ownershipChallengeResponse = z
  .object({
    challenge_id: z.number().int(),
    address: z.string(),
    /**
     * `bip137` (Bitcoin signed message; a native SegWit address also takes BIP-322), `bip322` (BIP-322 simple, for
     * Taproot), `eip191` (personal_sign) or `tip191` (TRON signMessageV2).
     */
    method: z.enum(['bip137', 'bip322', 'eip191', 'tip191']),
    message: z.string(),
    expires_at: z.string(),
  })
  .meta({ id: 'OwnershipChallenge' });
export type OwnershipChallenge = z.infer<typeof ownershipChallengeResponse>;

/** `POST /account/beneficiaries/{id}/ownership_proof`. */
export const ownershipProofSchema = z.object({
  challenge_id: z.coerce
    .number({ error: TRAVEL_RULE_ERRORS.challengeInvalid })
    .int(TRAVEL_RULE_ERRORS.challengeInvalid)
    .positive(TRAVEL_RULE_ERRORS.challengeInvalid)
    .max(Number.MAX_SAFE_INTEGER, TRAVEL_RULE_ERRORS.challengeInvalid),
  signature: z
    .string({ error: TRAVEL_RULE_ERRORS.signatureRequired })
    .trim()
    .min(1, TRAVEL_RULE_ERRORS.signatureRequired)
    // A BIP-322 witness of a P2WSH multisig (up to 16 signatures and the script) is a little over 2,300 base64
    // characters; every other format is far shorter.
    .max(4000, TRAVEL_RULE_ERRORS.signatureInvalid),
});
export type OwnershipProofInput = z.infer<typeof ownershipProofSchema>;
