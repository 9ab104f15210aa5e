/**
 * Dotted error codes returned by the server as `{"errors": [code, ...]}` (DESIGN.md §6).
 * The web app maps each code to the specification's message through its i18n catalogue.
 */
export const ERRORS = {
  /** Unknown API path (404). */
  routeNotFound: 'server.route.not_found',
  /** A record does not exist or does not belong to the caller (404). */
  recordNotFound: 'record.not_found',
  /** Unexpected failure on the server (500); details are only in the server log. */
  internal: 'server.internal_error',
  /** The request body is not valid JSON (400). */
  invalidJson: 'server.invalid_json',
  /** The request body is larger than the server accepts (413). */
  payloadTooLarge: 'server.payload_too_large',
  /** The request body has a content type the endpoint does not accept (415). */
  unsupportedMediaType: 'server.unsupported_media_type',
  /** Too many requests from this client; retry later (429). */
  rateLimited: 'server.rate_limited',
  /** The database did not answer the health check (503). */
  databaseUnavailable: 'server.database_unavailable',
  /** A request field failed validation but no more specific code applies (422). */
  invalidParams: 'server.invalid_params',

  /** Contact form: email missing ("Please enter your email"). */
  inquiryEmailRequired: 'identity.inquiry.missing_email',
  /** Contact form: email contains only whitespace ("whitespace not allowed"). */
  inquiryEmailWhitespace: 'identity.inquiry.email_whitespace',
  /** Contact form: email is not a valid address ("Invalid Email"). */
  inquiryEmailInvalid: 'identity.inquiry.invalid_email',
  /** Contact form: subject missing. */
  inquirySubjectRequired: 'identity.inquiry.missing_subject',
  /** Contact form: subject over 200 characters ("Must not exceed 200 characters"). */
  inquirySubjectTooLong: 'identity.inquiry.subject_too_long',
  /** Contact form: name missing. */
  inquiryNameRequired: 'identity.inquiry.missing_name',
  /** Contact form: name over 200 characters. */
  inquiryNameTooLong: 'identity.inquiry.name_too_long',
  /** Contact form: name contains a digit ("Number not allowed"). */
  inquiryNameHasNumber: 'identity.inquiry.name_has_number',
  /** Contact form: message missing. */
  inquiryMessageRequired: 'identity.inquiry.missing_message',
  /** Contact form: message over 500 characters. */
  inquiryMessageTooLong: 'identity.inquiry.message_too_long',
  /** Contact form: user_type is not one of the two allowed values. */
  inquiryInvalidUserType: 'identity.inquiry.invalid_user_type',

  /** A captcha is required and none was sent ("Verify the captcha"). */
  captchaRequired: 'identity.captcha.required',
  /** The captcha answer was wrong, expired or already used ("Verify the captcha"). */
  captchaInvalid: 'identity.captcha.verification_failed',
} as const;

/** Any error code the server may return. */
export type ErrorCode = (typeof ERRORS)[keyof typeof ERRORS];

/** The error envelope of every failed API call. */
export interface ErrorEnvelope {
  errors: string[];
}
