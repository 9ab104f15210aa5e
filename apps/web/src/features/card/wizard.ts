import {
  type CardDocumentType,
  type CardHolderState,
  type HolderStatus,
  type IdType,
  requiredDocuments,
} from '@exchange/shared';

/** The four steps of the application wizard (docs/cards.md#screens), in order; the index is the Stepper's `active`. */
export const WIZARD_STEPS = ['profile', 'kyc', 'review', 'fee'] as const;
export type WizardStepName = (typeof WIZARD_STEPS)[number];
export const STEP = { profile: 0, kyc: 1, review: 2, fee: 3 } as const satisfies Record<
  WizardStepName,
  number
>;

/** The id type a holder applied with: `idno_type` 2 is a passport, anything else an ID card (docs/cards.md#data). */
export function holderIdType(holder: Pick<CardHolderState, 'idno_type'>): IdType {
  return holder.idno_type === 2 ? 'passport' : 'id_card';
}

/** The review state of a holder (`status`, or `audit_status` when the former is absent). */
export function holderStatus(holder: Pick<CardHolderState, 'status' | 'audit_status'>): HolderStatus {
  return holder.status ?? holder.audit_status;
}

/** True for the review outcomes that show a failure with an OK back to the documents (docs/cards.md#states). */
export function reviewFailed(status: HolderStatus | undefined): boolean {
  return status === 'rejection' || status === 'incomplete_information';
}

/** The images a holder still has to upload, in the spec's order: document images first, then the selfie. */
export function missingUploads(
  holder: Pick<CardHolderState, 'idno_type' | 'id_card_front' | 'id_card_back' | 'passport' | 'selfie'>,
): CardDocumentType[] {
  const missing: CardDocumentType[] = requiredDocuments(holderIdType(holder)).filter((doc) => !holder[doc]);
  if (!holder.selfie) missing.push('selfie');
  return missing;
}

/**
 * The wizard step from the holder's state (docs/cards.md#states): no holder yet → Review profile; documents to upload or
 * submit → KYC verification; under review, or refused (the failure is shown there) → To be reviewed; approved
 * (bound) → Fee.
 */
export function wizardStep(holder: CardHolderState | null | undefined): number {
  if (!holder) return STEP.profile;
  const status = holderStatus(holder);
  if (holder.bindSuccess || status === 'activation_successful') return STEP.fee;
  if (status === 'under_review' || reviewFailed(status)) return STEP.review;
  return STEP.kyc;
}
