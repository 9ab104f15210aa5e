/** An outgoing message on the mail or SMS channel. */
export interface OutgoingMessage {
  to: string;
  subject: string;
  text: string;
  replyTo?: string;
}

/** Sends email. Implementations: the outbox table (default) and SMTP. */
export interface MailPort {
  send(message: OutgoingMessage): Promise<void>;
}
