import type { KycService } from '../../modules/kyc/service.ts';

/**
 * What the kyc module's routes use, and nothing more: the app passes its whole dependency set, which has these
 * members among others, so the routes do not import the app (no import circle) and say what they touch.
 */
export interface KycRouteDeps {
  /** Identity verification. */
  kyc: KycService;
}
