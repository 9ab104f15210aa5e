import { createCipheriv, createDecipheriv, randomBytes, randomInt } from 'node:crypto';
import type { CardSimulatorCredentials } from '@exchange/server/provider-kit';
import { luhnValid } from '@exchange/shared';
import type pg from 'pg';
import { storedCredentials } from '../credentials.ts';

/**
 * The simulator's credentials, as an issuer's dashboard would hand them out: the API's Basic credentials, the
 * webhook's Basic credentials and signing secret, and the key it encrypts card numbers and PINs with.
 */
export type { CardSimulatorCredentials };

/** Loads the simulator's credentials, generating them once (shared by the app and the operator CLI). */
export async function loadCardSimulatorCredentials(db: pg.Pool): Promise<CardSimulatorCredentials> {
  const token = () => randomBytes(24).toString('base64url');
  const fresh: CardSimulatorCredentials = {
    apiUsername: `app_${randomBytes(8).toString('hex')}`,
    apiPassword: token(),
    webhookUsername: `hook_${randomBytes(8).toString('hex')}`,
    webhookPassword: token(),
    webhookSecret: token(),
    dataKey: randomBytes(32).toString('base64url'),
  };
  return storedCredentials<CardSimulatorCredentials>(db, 'card_simulator', fresh);
}

/** The simulator's bank identification number: its cards start with it. */
export const SIM_BIN = '530099';

/** A 16-digit number that passes the Luhn check: the BIN, nine random digits and the check digit. */
export function generatePan(bin = SIM_BIN): string {
  let body = bin;
  while (body.length < 15) body += String(randomInt(10));
  for (let check = 0; check < 10; check++) if (luhnValid(body + check)) return body + check;
  throw new Error('unreachable: some check digit always passes');
}

/** `MMYY` three years after `now`. */
export function expiration(now = new Date()): string {
  const mm = String(now.getUTCMonth() + 1).padStart(2, '0');
  return `${mm}${String((now.getUTCFullYear() + 3) % 100).padStart(2, '0')}`;
}

export function seal(key: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(key, 'base64url'), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, data, cipher.getAuthTag()].map((b) => b.toString('base64url')).join('.');
}

export function unseal(key: string, sealed: string): string {
  const [iv, data, tag] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
  if (!iv || !data || !tag) throw new Error('malformed sealed value');
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(key, 'base64url'), iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
}
