import {
  constants,
  createDecipheriv,
  createPrivateKey,
  generateKeyPairSync,
  type KeyObject,
  privateDecrypt,
} from 'node:crypto';
import { ERRORS } from '@exchange/shared';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { decrypt, encrypt, type ServerKeys } from '../modules/identity/crypto.ts';
import { AppError } from './errors.ts';
import { docs } from './openapi.ts';

/** The server's RSA key for request bodies: the public half is published, the private half stays encrypted at rest. */
export interface BodyKey {
  publicKeyPem: string;
  privateKey: KeyObject;
}

/** Loads the body-encryption key pair, generating it once (shared by every process through the database). */
export async function loadBodyKey(db: pg.Pool, keys: ServerKeys): Promise<BodyKey> {
  const existing = (await db.query(`select value from app_secrets where name = 'body_rsa_key'`)).rows[0];
  if (!existing) {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const value = JSON.stringify({
      public: pair.publicKey.export({ type: 'spki', format: 'pem' }),
      private: encrypt(keys, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()),
    });
    await db.query(
      `insert into app_secrets (name, value) values ('body_rsa_key', $1) on conflict (name) do nothing`,
      [value],
    );
  }
  const stored = JSON.parse(
    (await db.query(`select value from app_secrets where name = 'body_rsa_key'`)).rows[0].value,
  );
  return { publicKeyPem: stored.public, privateKey: createPrivateKey(decrypt(keys, stored.private)) };
}

/** True for a body of exactly `{data, iv, key}` strings: the shape the web app sends. */
function isEnvelope(body: unknown): body is { data: string; iv: string; key: string } {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
  const keys = Object.keys(body);
  const b = body as Record<string, unknown>;
  return (
    keys.length === 3 && typeof b.data === 'string' && typeof b.iv === 'string' && typeof b.key === 'string'
  );
}

/** Opens an envelope: RSA-OAEP(SHA-256) unwraps the AES-256-GCM key, which decrypts `data` (ciphertext + 16-byte tag). */
export function openEnvelope(bodyKey: BodyKey, envelope: { data: string; iv: string; key: string }): unknown {
  const aesKey = privateDecrypt(
    { key: bodyKey.privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    Buffer.from(envelope.key, 'base64'),
  );
  const sealed = Buffer.from(envelope.data, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', aesKey, Buffer.from(envelope.iv, 'base64'));
  decipher.setAuthTag(sealed.subarray(sealed.length - 16));
  const plain = Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]);
  return JSON.parse(plain.toString('utf8'));
}

/**
 * Publishes `GET /api/v2/barong/identity/encryption_key` and decrypts encrypted JSON bodies before any route sees
 * them (accounts spec §7). Plain JSON is accepted too, so programs and scripts can call the API directly.
 */
export function installBodyEncryption(app: FastifyInstance, bodyKey: BodyKey, prefix: string): void {
  app.get(`${prefix}/identity/encryption_key`, docs('Public key for encrypted request bodies'), async () => ({
    public_key: bodyKey.publicKeyPem,
    algorithm: 'RSA-OAEP-256+A256GCM',
  }));
  app.addHook('preHandler', async (request) => {
    if (!isEnvelope(request.body)) return;
    try {
      request.body = openEnvelope(bodyKey, request.body);
    } catch {
      throw new AppError(400, [ERRORS.invalidJson]);
    }
  });
}
