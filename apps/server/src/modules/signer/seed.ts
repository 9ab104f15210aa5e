import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { HDKey } from '@scure/bip32';
import { generateMnemonic, mnemonicToSeedSync, validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';

/**
 * The signer's seed at rest: a BIP39 mnemonic (so it can be written on paper and restored in any wallet), sealed
 * with AES-256-GCM under a key stretched by scrypt from the signer's own key (`SIGNER_KEY`), never `SECRET_KEY`.
 * The file holds no secret in the clear; without the key it is noise.
 */
interface SealedSeed {
  version: 1;
  kdf: 'scrypt';
  salt: string;
  iv: string;
  tag: string;
  ciphertext: string;
}

/** scrypt cost: about 0.1 s and 64 MiB once at start, which makes guessing a weak key expensive. */
const SCRYPT = { N: 1 << 16, r: 8, p: 1, maxmem: 128 * 1024 * 1024 };

function stretch(key: string, salt: Buffer): Buffer {
  return scryptSync(key, salt, 32, SCRYPT);
}

/** Seals `mnemonic` under `key` and writes it to `file` (mode 0600, written whole or not at all). */
export async function writeSeedFile(file: string, mnemonic: string, key: string): Promise<void> {
  if (!validateMnemonic(mnemonic, wordlist)) throw new Error('not a valid BIP39 mnemonic');
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', stretch(key, salt), iv);
  const ciphertext = Buffer.concat([cipher.update(mnemonic, 'utf8'), cipher.final()]);
  const sealed: SealedSeed = {
    version: 1,
    kdf: 'scrypt',
    salt: salt.toString('base64'),
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    ciphertext: ciphertext.toString('base64'),
  };
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.tmp`;
  await writeFile(temporary, `${JSON.stringify(sealed, null, 2)}\n`, { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, file);
}

/** Opens the seed file with `key`; a wrong key or a damaged file is refused (GCM authenticates both). */
export async function readSeedFile(file: string, key: string): Promise<string> {
  const sealed = JSON.parse(await readFile(file, 'utf8')) as SealedSeed;
  if (sealed.version !== 1 || sealed.kdf !== 'scrypt') throw new Error(`${file}: unknown seed file format`);
  const decipher = createDecipheriv(
    'aes-256-gcm',
    stretch(key, Buffer.from(sealed.salt, 'base64')),
    Buffer.from(sealed.iv, 'base64'),
  );
  decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
  try {
    return Buffer.concat([
      decipher.update(Buffer.from(sealed.ciphertext, 'base64')),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    throw new Error(
      `${file}: the signer key does not open this seed file (wrong SIGNER_KEY, or the file is damaged)`,
    );
  }
}

/** A new 24-word mnemonic (256 bits of entropy). */
export function newMnemonic(): string {
  return generateMnemonic(wordlist, 256);
}

/** The BIP32 root of a mnemonic (no passphrase). */
export function rootOf(mnemonic: string): HDKey {
  return HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic));
}
