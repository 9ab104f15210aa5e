import type { CardHolderState } from '@exchange/shared';
import { describe, expect, it } from 'vitest';
import { holderIdType, missingUploads, STEP, wizardStep } from '../../src/features/card/wizard.ts';

const holder = (over: Partial<CardHolderState> = {}): CardHolderState => ({
  holder_id: 'h1',
  first_name: 'Ada',
  last_name: 'Lovelace',
  id: 'AB123456',
  country: 'DE',
  idno_type: 1,
  audit_status: 'pending',
  document_status: 'missing',
  selfie_status: 'missing',
  id_card_front: false,
  id_card_back: false,
  passport: false,
  selfie: false,
  isIncomplete: true,
  status: 'pending',
  description: null,
  bindSuccess: false,
  ...over,
});

describe('wizard step from the holder state (docs/cards.md#states)', () => {
  it('starts at Review profile without a holder', () => {
    expect(wizardStep(null)).toBe(STEP.profile);
    expect(wizardStep(undefined)).toBe(STEP.profile);
  });

  it('is at KYC verification while documents are pending, uploaded or not', () => {
    expect(wizardStep(holder())).toBe(STEP.kyc);
    expect(wizardStep(holder({ id_card_front: true, id_card_back: true, selfie: true }))).toBe(STEP.kyc);
  });

  it('is at To be reviewed under review, and after a refusal (which shows the failure there)', () => {
    expect(wizardStep(holder({ status: 'under_review', audit_status: 'under_review' }))).toBe(STEP.review);
    expect(wizardStep(holder({ status: 'rejection', audit_status: 'rejection' }))).toBe(STEP.review);
    expect(wizardStep(holder({ status: 'incomplete_information' }))).toBe(STEP.review);
  });

  it('is at Fee once approved or bound', () => {
    expect(wizardStep(holder({ status: 'activation_successful' }))).toBe(STEP.fee);
    expect(wizardStep(holder({ status: 'under_review', bindSuccess: true }))).toBe(STEP.fee);
  });
});

describe('holder documents (docs/cards.md#data, #states)', () => {
  it('reads idno_type 2 as a passport, anything else as an ID card', () => {
    expect(holderIdType({ idno_type: 2 })).toBe('passport');
    expect(holderIdType({ idno_type: 1 })).toBe('id_card');
  });

  it('lists the missing images in order: ID front, ID back, then the selfie', () => {
    expect(missingUploads(holder())).toEqual(['id_card_front', 'id_card_back', 'selfie']);
    expect(missingUploads(holder({ id_card_front: true }))).toEqual(['id_card_back', 'selfie']);
    expect(missingUploads(holder({ id_card_front: true, id_card_back: true, selfie: true }))).toEqual([]);
  });

  it('needs only the passport page and the selfie for a passport', () => {
    expect(missingUploads(holder({ idno_type: 2 }))).toEqual(['passport', 'selfie']);
    expect(missingUploads(holder({ idno_type: 2, passport: true }))).toEqual(['selfie']);
  });
});
