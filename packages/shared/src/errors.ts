/**
 * Dotted error codes returned by the server as `{"errors": [code, ...]}` (docs/platform.md#wire-contract).
 * The web app maps each code to the specification's message through its i18n catalogue.
 */
export const ERRORS = {
  /** Unknown API path (404). */
  routeNotFound: 'server.route.not_found',
  /** The API path exists, but not for this method (405, with the methods it takes in `Allow`), as Peatio answers. */
  methodNotAllowed: 'server.method_not_allowed',
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
  /**
   * The database cannot be reached: it is down, restarting, or the connection was cut (503). Any request that
   * needs it answers this, as do the health checks; the exchange core refuses commands with it while it reloads
   * from the database. Retry later: an order whose answer was lost with the connection may have been stored, and a
   * retry with the same `client_id` gets its outcome instead of placing it twice.
   */
  databaseUnavailable: 'server.database_unavailable',
  /**
   * The request waited inside the server (for the database or the core) past its deadline, and nothing was done
   * with it: retry (503 with Retry-After). Never an authentication error: a signed request that waited is not an
   * expired one.
   */
  busy: 'server.busy',
  /**
   * The load balancer's own answer (502/503/504) when the server handling a request went away or none is up: the
   * request may have been carried out; retry it (with its `client_id` for an order) to get its outcome.
   */
  upstreamUnavailable: 'server.upstream_unavailable',
  /**
   * The server's disk is nearly full: new orders, swaps, withdrawals and card top-ups are refused until there is
   * room again, so the database never stops on a full disk (503 with Retry-After).
   */
  diskLow: 'server.disk_low',
  /** This process is a standby core waiting for the lease: it serves nothing but its health (503). */
  standby: 'server.standby',
  /** A developer tool (DEV_TOOLS: outbox, faucet, mining) was asked from another machine (403). */
  devToolsLoopbackOnly: 'server.dev_tools.loopback_only',
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

  /** No session cookie or API key, or the session expired or was revoked (401). */
  invalidSession: 'authz.invalid_session',
  /** The session belongs to another client (user agent changed) (401). */
  clientSessionMismatch: 'authz.client_session_mismatch',
  /** The account is not active (pending, disabled or locked) (401). */
  userNotActive: 'authz.user_not_active',
  /** A mutating request with a session cookie carried no X-CSRF-Token header (401, as in Barong). */
  missingCsrf: 'authz.missing_csrf_token',
  /** The X-CSRF-Token header does not match the session's token (401, as in Barong). */
  csrfMismatch: 'authz.csrf_token_mismatch',
  /**
   * A page of another origin sent a request it may not: a cookie-authenticated websocket upgrade, or a login,
   * registration, verification or password reset (403).
   */
  originNotAllowed: 'authz.origin_not_allowed',
  /** API key: the HMAC signature is wrong (401). */
  invalidSignature: 'authz.invalid_signature',
  /** API key: the nonce is more than 5 s from server time, or was already used (401). */
  nonceExpired: 'authz.nonce_expired',
  /** API key: the key is inactive (401). */
  apikeyNotActive: 'authz.apikey_not_active',
  /** API key: no key with that kid (401). */
  unexistentApikey: 'authz.unexistent_apikey',
  /** API key: the key's owner has turned two-factor authentication off (401). */
  disabled2fa: 'authz.disabled_2fa',
  /**
   * API key: the request was signed correctly, but the key's allowed IPs hold no entry for the address it came
   * from (403). Logged in the owner's security log (`ip_whitelist`), at most once a minute per key and process.
   */
  ipNotAllowed: 'authz.ip_not_allowed',
  /** API key: one of the three X-Auth headers is missing or malformed (401). */
  invalidApikeyHeaders: 'authz.invalid_apikey_headers',
  /**
   * An API key asked for what only a signed-in browser session may do: security settings (password, two-factor,
   * phone, anti-phishing phrase, API keys), profile and user data, identity documents, or sending codes (403).
   */
  sessionRequired: 'authz.session_required',

  /** Login: wrong email/phone or password; the body also carries `left`, the attempts remaining (401). */
  loginInvalid: 'identity.session.invalid_params',
  /** Login: the account is blocked after too many failures; followed by the reason code (401). */
  accountBlocked: 'identity.session.account_blocked',
  /** Reason: too many failed login attempts; try again later. */
  tooManyAttempts: 'identity.session.too_many_attempts',
  /** Login: the second step is needed: a TOTP code (`otp_code`) or a one-time code (`code`) (401). */
  missingOtp: 'identity.session.missing_otp',
  /** Login: the TOTP code is wrong (403). */
  invalidOtp: 'identity.session.invalid_otp',
  /** Login: the TOTP code is right but its 30 s step was already used; the next code is needed (403). */
  otpUsed: 'identity.session.otp_used',
  /** Login: the emailed/SMS one-time code is wrong, expired or used up (403). */
  invalidCode: 'identity.session.invalid_code',
  /**
   * Login: the password and second factor were right, but the account's IP whitelist holds no entry for the
   * address the login came from (403). Answered only after both factors, so it tells nothing to someone who
   * lacks them; the refusal is in the account's security log (`ip_whitelist`).
   */
  ipNotAllowedForLogin: 'identity.session.ip_not_allowed',
  /** Login: the account is not active yet; verify email and phone first (401). */
  notActive: 'identity.session.not_active',
  /**
   * A phone code (registration, login by SMS, phone change) could not be sent: the SMS provider did not take the
   * text (it was busy, failing or unreachable, or refused the account). Nothing was sent and the code was
   * withdrawn; asking again is not held back by the resend gap (503 with Retry-After).
   */
  smsUnavailable: 'resource.phone.sms_unavailable',
  /** Resend refused: a phone code was sent less than 60 s ago (429). */
  phoneResendLimit: 'identity.session.phone_resend_limit',
  /** Resend refused: an email code was sent less than 60 s ago (429). */
  emailResendLimit: 'identity.session.email_resend_limit',

  /** Registration: this email is already registered ("Email already have been taken"). */
  emailTaken: 'identity.user.email_taken',
  /** Password fails the strength rules or is a commonly breached password ("Please choose a stronger password"). */
  passwordWeak: 'password.weak',
  /** Registration: a required field is empty ("This field is required"). */
  fieldRequired: 'identity.user.field_required',
  /** Registration: a name has characters other than letters, spaces and hyphens, or is 3-40 long ("Invalid name"). */
  invalidName: 'identity.user.invalid_name',
  /** Registration: email does not match the registration rule ("Invalid Email"). */
  invalidEmail: 'identity.user.invalid_email',
  /** Registration: phone number is not 1-14 digits. */
  invalidPhone: 'identity.user.invalid_phone',
  /** Registration: country is not one of the supported registration countries, or its code does not match. */
  invalidCountry: 'identity.user.invalid_country',
  /** Password missing ("Please enter your password"). */
  passwordRequired: 'password.missing',
  /** Password does not match the pattern: 8-64 characters, upper and lower case and one of #?!@$%^&*-. */
  passwordPattern: 'password.pattern',
  /** Confirmation does not equal the password ("Password doesn't match"). */
  passwordMismatch: 'password.mismatch',
  /** Verification: the email code is wrong, expired or used up. */
  invalidEmailCode: 'identity.user.invalid_email_code',
  /** Verification: the phone code is wrong, expired or used up. */
  invalidPhoneCode: 'identity.user.invalid_phone_code',
  /** Verification: email code missing ("Please enter email OTP Code"). */
  missingEmailCode: 'identity.user.missing_email_otp',
  /** Verification: phone code missing ("Please enter phone OTP Code"). */
  missingPhoneCode: 'identity.user.missing_phone_otp',
  /** A code field is not made of digits of the right length. */
  invalidCodeFormat: 'identity.code.invalid_format',
  /** Password reset: the link's token is unknown, used or expired. */
  invalidResetToken: 'identity.user.invalid_reset_token',
  /** BASEAPP_COMPAT: the account confirmation link's token is malformed, forged or expired (422). */
  invalidConfirmationToken: 'identity.user.invalid_token',
  /** BASEAPP_COMPAT: the confirmation link names an account that is active already or gone (Barong's, 422). */
  activeOrDoesntExist: 'identity.user.active_or_doesnt_exist',
  /** Password change: the old password is wrong (400, as Barong). */
  wrongOldPassword: 'resource.password.prev_pass_not_correct',
  /** Password change: the new password equals the old one (400, as Barong). */
  samePassword: 'resource.password.no_change_provided',
  /** Password change: the confirmation differs from the new password (422, as Barong). */
  passwordChangeMismatch: 'resource.password.doesnt_match',
  /** A 6-digit TOTP code is required for this action ("Code is required"). */
  totpRequired: 'resource.otp.missing_code',
  /** The TOTP code is wrong ("Invalid 2FA Code"). */
  totpInvalid: 'resource.otp.invalid_code',
  /** The TOTP code is right but was already used (same 30 s step): wait for the next one. */
  totpUsed: 'resource.otp.code_used',
  /** Two-factor set-up: the code is wrong or malformed (422, Barong's `resource.otp.invalid`). */
  otpInvalid: 'resource.otp.invalid',
  /** Two-factor authentication is already on (400 on the set-up routes, as Barong). */
  otpAlreadyEnabled: 'resource.otp.already_enabled',
  /**
   * Two-factor authentication is off, but the action needs it (withdrawals, card pin: 403; turning it off: 400,
   * as Barong).
   */
  otpNotEnabled: 'resource.otp.not_enabled',
  /** No QR code was generated before enabling two-factor authentication. */
  otpNotGenerated: 'resource.otp.not_generated',
  /** API key: the algorithm is not HS256. */
  apiKeyInvalidAlgorithm: 'resource.api_key.invalid_algorithm',
  /** API keys: creating, changing or deleting one needs two-factor on (400, as Barong). */
  apiKey2faDisabled: 'resource.api_key.2fa_disabled',
  /** API keys: `totp_code` is missing (422, as Barong). */
  apiKeyMissingTotp: 'resource.api_key.missing_totp',
  /** API keys: `totp_code` is wrong, malformed or already used (422, as Barong). */
  apiKeyInvalidTotp: 'resource.api_key.invalid_totp',
  /** API key list: `ordering` is neither asc nor desc (422, as Barong). */
  apiKeyInvalidOrdering: 'resource.api_key.invalid_ordering',
  /** API key list: `order_by` names no field of a key (422, as Barong). */
  apiKeyInvalidAttribute: 'resource.api_key.invalid_attribute',
  /** `PUT /resource/users/me`: `data` is missing, longer than 1 KiB or not a JSON text (422). */
  userDataInvalid: 'resource.user.invalid_data',
  /**
   * `GET /resource/users/export`: the user already took a copy of their data in the last 24 hours (429). The
   * answer says when the next one is possible: `next_at` (ISO 8601, UTC) and the `Retry-After` header (seconds).
   * One a day, because an export reads the user's whole history; a download the server could not finish does
   * not count.
   */
  dataExportLimit: 'resource.user.export_limit',
  /** API key: the state is neither active nor inactive (nor Barong's `disabled`, read as inactive). */
  apiKeyInvalidState: 'resource.api_key.invalid_state',
  /**
   * Devices: no live session of the signed-in user has this id (404). Another user's session, an ended one and a
   * malformed id all answer this alike, so an id tells nobody whether it exists.
   */
  sessionNotFound: 'resource.session.doesnt_exist',
  /**
   * Devices: `DELETE /resource/sessions/{id}` named the session of the request itself (422); this device signs
   * out with `DELETE /identity/sessions` (logout) instead.
   */
  sessionIsCurrent: 'resource.session.current',
  /** IP whitelist: an entry is no IPv4 or IPv6 address or CIDR range (422). */
  ipWhitelistInvalidIp: 'resource.ip_whitelist.invalid_ip',
  /** IP whitelist: the list already holds this address or range, in any spelling (422). */
  ipWhitelistDuplicate: 'resource.ip_whitelist.duplicate',
  /** IP whitelist: the list would hold more than 20 entries (422). */
  ipWhitelistTooMany: 'resource.ip_whitelist.too_many',
  /**
   * IP whitelist: after this change the login list would be non-empty and leave out the address the change is
   * made from, so the next login from here would be refused (422). Add this address (or a range with it) first,
   * or remove the other entries.
   */
  ipWhitelistExcludesCurrent: 'resource.ip_whitelist.excludes_current_ip',
  /**
   * IP whitelist: no entry of the signed-in user's login list has this id (404). Another user's entry and a
   * malformed id answer this alike.
   */
  ipWhitelistNotFound: 'resource.ip_whitelist.doesnt_exist',
  /** Phone change: the number is not 4-30 digits. */
  phoneInvalid: 'resource.phone.invalid_num',
  /** Phone change: the number already belongs to an account. */
  phoneExists: 'resource.phone.number_exist',
  /** Phone change: the SMS code is wrong or expired ("Verification code is invalid"). */
  phoneCodeInvalid: 'resource.phone.verification_invalid',
  /** Phone change: no change was started for this number. */
  phoneChangeNotStarted: 'resource.phone.not_started',
  /** Profile: editing is allowed only while identity verification is Pending. */
  profileNotEditable: 'resource.profile.doesnt_exist_or_not_editable',
  /** Profile: date of birth is missing, invalid or less than 18 years ago. */
  profileInvalidDob: 'resource.profile.invalid_dob',
  /** Profile: postcode is not 1-10 letters and digits. */
  profileInvalidPostcode: 'resource.profile.invalid_postcode',
  /** KYC: the profile lacks gender, date of birth, address, postcode, city or country (422). */
  kycProfileIncomplete: 'resource.kyc.profile_incomplete',
  /** KYC: identity is already verified; nothing to submit (422). */
  kycAlreadyVerified: 'resource.kyc.already_verified',
  /** KYC: the provider's final rejection blocks further attempts (422). */
  kycRejectedFinal: 'resource.kyc.rejected_final',
  /** KYC: the applicant id is missing, unknown to the provider, or belongs to someone else (422). */
  kycInvalidApplicant: 'resource.kyc.invalid_applicant',
  /** KYC: the verification provider did not answer; try again later (503). */
  kycProviderUnavailable: 'resource.kyc.provider_unavailable',
  /** Net verify: redirectUrl is missing or not an http(s) address (422). */
  kycInvalidRedirect: 'resource.kyc.invalid_redirect_url',
  /** Net verify: scan_ref is missing (422). */
  kycMissingScanRef: 'resource.kyc.missing_scan_ref',
  /** Documents: doc_type is missing or not one of the accepted types (422). */
  documentInvalidType: 'resource.documents.invalid_doc_type',
  /** Documents: doc_number is not 1-32 letters, digits, underscores or hyphens (422). */
  documentInvalidNumber: 'resource.documents.invalid_doc_number',
  /** Documents: doc_expire is not a date (YYYY-MM-DD) in the future (422). */
  documentInvalidExpire: 'resource.documents.invalid_doc_expire',
  /** Documents: no file was sent (422). */
  documentMissingUpload: 'resource.documents.missing_upload',
  /** Documents: a file is not JPG, JPEG, PNG or PDF by its content (422). */
  documentInvalidFormat: 'resource.documents.invalid_format',
  /** Documents: a file is larger than 2 MB (422). */
  documentTooLarge: 'resource.documents.file_too_large',
  /** Documents: more files than one upload takes (422). */
  documentTooMany: 'resource.documents.too_many_files',
  /** Documents: the request is not multipart/form-data (422). */
  documentNotMultipart: 'resource.documents.not_multipart',
  /** KYC webhook: `x-payload-digest` is missing or does not match the raw body (401). */
  kycWebhookInvalidDigest: 'kyc.webhook.invalid_digest',
  /** KYC webhook: the body is not a webhook payload (400). */
  kycWebhookInvalidPayload: 'kyc.webhook.invalid_payload',
  /**
   * SMS status callback: `X-Twilio-Signature` is missing, or is not the signature of the callback's URL and
   * parameters with the SMS account's auth token (401). Nothing is recorded.
   */
  smsWebhookInvalidSignature: 'sms.webhook.invalid_signature',
  /** SMS status callback: signed, but without a message SID (`MessageSid`) or status (`MessageStatus`) (400). */
  smsWebhookInvalidPayload: 'sms.webhook.invalid_payload',
  /** The account is already verified; nothing to do. */
  alreadyVerified: 'identity.user.already_verified',
  /**
   * Change of a pending registration's phone: the registration token (held by the browser that registered, or
   * that logged in to the pending account) is missing, wrong or expired, or the email has no pending
   * registration; one answer for all, so it tells nobody which emails are registered (422).
   */
  registrationTokenInvalid: 'identity.user.invalid_registration_token',
} as const;

/** Any error code the server may return. */
export type ErrorCode = (typeof ERRORS)[keyof typeof ERRORS];

/** The error envelope of every failed API call. */
export interface ErrorEnvelope {
  errors: string[];
}
