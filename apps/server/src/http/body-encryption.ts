import {
  constants,
  createDecipheriv,
  createPrivateKey,
  generateKeyPair,
  type KeyObject,
  privateDecrypt,
} from 'node:crypto';
import { promisify } from 'node:util';
import { ERRORS, encryptionKeyResponse } from '@exchange/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { decrypt, encrypt, type ServerKeys } from '../modules/identity/crypto.ts';
import { insertBodyKey, readBodyKey } from './body-key-repository.ts';
import { AppError } from './errors.ts';
import { docs } from './openapi.ts';

/** The server's RSA key for request bodies: the public half is published, the private half stays encrypted at rest. */
export interface BodyKey {
  publicKeyPem: string;
  privateKey: KeyObject;
}

const generateRsaKeyPair = promisify(generateKeyPair);

/**
 * Loads the body-encryption key pair, generating it once (shared by every process through the database). The
 * generation runs on libuv's thread pool: an RSA key takes from a few dozen milliseconds to over half a second of
 * CPU, which would otherwise hold the event loop of a process that may already serve requests (a new api process).
 */
export async function loadBodyKey(db: pg.Pool, keys: ServerKeys): Promise<BodyKey> {
  if ((await readBodyKey(db)) === undefined) {
    const pair = await generateRsaKeyPair('rsa', { modulusLength: 2048 });
    const value = JSON.stringify({
      public: pair.publicKey.export({ type: 'spki', format: 'pem' }),
      private: encrypt(keys, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()),
    });
    await insertBodyKey(db, value);
  }
  const value = await readBodyKey(db);
  if (value === undefined) throw new Error('the body-encryption key was not stored');
  const stored = JSON.parse(value);
  return { publicKeyPem: stored.public, privateKey: createPrivateKey(decrypt(keys, stored.private)) };
}

/**
 * True for a parsed JSON object of exactly `{data, iv, key}` strings: the shape the web app sends. The three
 * property reads come first, so only an envelope-shaped object has its keys counted (never a Buffer, a string
 * or an ordinary body), and that count is bounded by the JSON body limit the parser has already paid for.
 */
function isEnvelope(body: unknown): body is { data: string; iv: string; key: string } {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || Buffer.isBuffer(body)) return false;
  const b = body as Record<string, unknown>;
  if (typeof b.data !== 'string' || typeof b.iv !== 'string' || typeof b.key !== 'string') return false;
  return Object.keys(b).length === 3;
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
 * them (docs/accounts.md#api). Plain JSON is accepted too, so programs and scripts can call the API directly.
 *
 * The envelope is opened inside the JSON body parser, not in a request hook: only a body that arrived as
 * `application/json` and parsed to an object is ever looked at, so webhook bytes, uploads and forms cost nothing
 * here (a global hook once enumerated a Buffer body's keys, one per byte, and froze the process for seconds).
 * Must run before the route plugins are registered: they inherit the parser.
 */
export function installBodyEncryption(app: FastifyInstance, bodyKey: BodyKey, prefix: string): void {
  app.get(
    `${prefix}/identity/encryption_key`,
    docs('Public key for encrypted request bodies', { response: encryptionKeyResponse }),
    async () => ({
      public_key: bodyKey.publicKeyPem,
      algorithm: 'RSA-OAEP-256+A256GCM',
    }),
  );
  const parseJson = app.getDefaultJsonParser('error', 'error') as (
    request: FastifyRequest,
    body: string,
    done: (err: Error | null, parsed?: unknown) => void,
  ) => void;
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser<string>('application/json', { parseAs: 'string' }, (request, body, done) =>
    parseJson(request, body, (err, parsed) => {
      if (err) return done(err);
      if (!isEnvelope(parsed)) return done(null, parsed);
      try {
        done(null, openEnvelope(bodyKey, parsed));
      } catch {
        done(new AppError(400, [ERRORS.invalidJson]));
      }
    }),
  );
}
