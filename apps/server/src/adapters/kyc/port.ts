/** What the exchange needs from an identity-verification provider (docs/platform.md#providers: KYC port). */
export interface KycProvider {
  /** `simulator` (built in, the default) or `sumsub` (the real service). */
  readonly kind: 'simulator' | 'sumsub';
  /** Creates the applicant for a user at a verification level. */
  createApplicant(input: {
    externalUserId: string;
    levelName: string;
    email?: string;
    phone?: string;
    fixedInfo?: ApplicantInfo;
    /** `company` for a company (KYB) applicant at a KYB level; `individual` (Sumsub's default) otherwise. */
    type?: 'individual' | 'company';
  }): Promise<Applicant>;
  /** The applicant of a user, or null when the provider has none. */
  findApplicantByExternalId(externalUserId: string): Promise<Applicant | null>;
  /** One applicant by the provider's id, or null. */
  getApplicant(applicantId: string): Promise<Applicant | null>;
  /** The applicant's review status. */
  getApplicantStatus(applicantId: string): Promise<ApplicantStatus>;
  /** An access token for the provider's web widget (`POST /resources/accessTokens/sdk`). */
  accessToken(input: { userId: string; levelName: string; ttlInSecs: number }): Promise<{
    token: string;
    userId: string;
  }>;
  /** A link to the provider's hosted verification page (the net-verify flow). */
  webSdkLink(input: {
    userId: string;
    levelName: string;
    ttlInSecs: number;
    redirectUrl: string;
  }): Promise<{ url: string }>;
  /** Adds a document (image or PDF) to the applicant. */
  addDocument(
    applicantId: string,
    metadata: { idDocType: string; idDocSubType?: string; country?: string; issuedDate?: string },
    file: { name: string; mimeType: string; content: Buffer },
  ): Promise<{ id: string }>;
  /** Asks for the review of an applicant whose documents are all in (`POST .../status/pending`). */
  requestCheck(applicantId: string): Promise<void>;
}

/** Personal data the applicant starts with (Sumsub's `fixedInfo`). */
export interface ApplicantInfo {
  firstName?: string;
  lastName?: string;
  dob?: string;
  gender?: string;
  country?: string;
  addresses?: { street?: string; town?: string; postCode?: string; country?: string }[];
  /** A company applicant's company (Sumsub's `fixedInfo.companyInfo`). */
  companyInfo?: CompanyInfo;
}

/** Sumsub's `companyInfo`: the company and its people (`beneficiaries`, each with its types and share). */
export interface CompanyInfo {
  companyName: string;
  registrationNumber: string;
  /** ISO 3166 alpha-3. */
  country: string;
  legalAddress?: string;
  beneficiaries?: { name: string; types: string[]; shareSize?: number | string }[];
}

/** The applicant as Sumsub returns it (the fields used here). */
export interface Applicant {
  id: string;
  externalUserId: string;
  inspectionId?: string;
  levelName?: string;
  createdAt?: string;
  review?: ApplicantStatus;
}

export interface ApplicantStatus {
  reviewStatus: 'init' | 'pending' | 'prechecked' | 'queued' | 'completed' | 'onHold';
  levelName?: string;
  reviewResult?: {
    reviewAnswer: 'GREEN' | 'RED';
    reviewRejectType?: 'RETRY' | 'FINAL';
    /** The reviewer's words to the applicant on a RED answer. */
    moderationComment?: string;
  };
}

/** A provider call that failed: its HTTP status and the provider's description. */
export class KycProviderError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
