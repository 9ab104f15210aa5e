import { z } from 'zod';
import { CONTACT_USER_TYPES, LIMITS } from '../constants.ts';
import { ERRORS } from '../errors.ts';
import { maxLength, notBlank, textField } from '../validation.ts';

/** A plausible email address: something@domain.tld without spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

/**
 * Contact message (docs/accounts.md#validation Contact). The same schema validates the web form and the
 * `POST /identity/inquiry` body; each issue's message is the error code the server returns.
 */
export const contactSchema = z.object({
  email: textField(ERRORS.inquiryEmailRequired, [
    [(v) => v.length > 0, ERRORS.inquiryEmailRequired],
    [notBlank, ERRORS.inquiryEmailWhitespace],
    [(v) => EMAIL_PATTERN.test(v.trim()) && v.length <= 254, ERRORS.inquiryEmailInvalid],
  ]),
  subject: textField(ERRORS.inquirySubjectRequired, [
    [notBlank, ERRORS.inquirySubjectRequired],
    [maxLength(LIMITS.contact.subjectMax), ERRORS.inquirySubjectTooLong],
  ]),
  name: textField(ERRORS.inquiryNameRequired, [
    [notBlank, ERRORS.inquiryNameRequired],
    [maxLength(LIMITS.contact.nameRuleMax), ERRORS.inquiryNameTooLong],
    [(v) => !/\d/.test(v), ERRORS.inquiryNameHasNumber],
  ]),
  message: textField(ERRORS.inquiryMessageRequired, [
    [notBlank, ERRORS.inquiryMessageRequired],
    [maxLength(LIMITS.contact.messageMax), ERRORS.inquiryMessageTooLong],
  ]),
  user_type: z.enum(CONTACT_USER_TYPES, { error: ERRORS.inquiryInvalidUserType }).optional(),
  captcha_response: z.string().max(10_000).optional(),
});

/** A validated contact message. */
export type ContactInput = z.infer<typeof contactSchema>;
