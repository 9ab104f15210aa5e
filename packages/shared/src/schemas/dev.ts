/**
 * A message of the development outbox (`GET /dev/outbox`, DEV_TOOLS only): what was sent to whom, with the
 * one-time secret filled in (in `body` and `secret`) only in the answer that first shows it.
 */
export interface OutboxMessage {
  id: string;
  channel: 'email' | 'sms';
  to: string;
  /** Which message it is (e.g. `login_code`, `password_reset`). */
  template: string;
  subject: string;
  body: string;
  /** The message's secret, on the one read that takes it; null before (none) and after. */
  secret: string | null;
  created_at: string;
}
