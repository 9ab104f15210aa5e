import { randomBytes } from 'node:crypto';

/** A new Barong-style user id: "ID" followed by ten upper-case hex digits. */
export function newUid(): string {
  return `ID${randomBytes(5).toString('hex').toUpperCase()}`;
}
