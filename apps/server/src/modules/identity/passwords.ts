import { hash, verify } from '@node-rs/argon2';
import { randomToken } from './crypto.ts';

/** argon2id parameters required by docs/platform.md#dependencies: m=19 MiB, t=2, p=1. */
export const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * Base words of the most common breached passwords. A password whose letters, with digits and symbols removed
 * and common substitutions undone, form one of these (or contain the user's email name) is refused as weak.
 */
const BREACHED_WORDS = new Set(
  `password passw0rd qwerty qwertyuiop asdfgh asdfghjkl zxcvbn zxcvbnm letmein welcome admin administrator
  iloveyou monkey dragon master sunshine princess football baseball basketball soccer hockey superman batman
  trustno shadow michael jennifer jordan hunter ranger buster thomas robert charlie daniel jessica ashley
  abc abcd abcdef abcdefg abcdefgh qazwsx qwer qwert changeme secret login starwars whatever freedom
  computer internet samsung google apple cookie summer winter spring autumn pokemon naruto matrix
  hello helloworld lovely loveme flower chocolate cheese banana orange purple yellow silver golden
  killer pepper ginger tigger mustang corvette ferrari harley mercedes porsche liverpool chelsea arsenal
  barcelona madrid juventus bitcoin crypto ethereum wallet exchange trading money dollar euro`
    .split(/\s+/)
    .filter(Boolean),
);

const LEET: Record<string, string> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '@': 'a',
  $: 's',
};

/**
 * True when the password is built on a commonly breached word (with at most three other letters around it)
 * or contains the user's own email name.
 */
export function isBreachedPassword(password: string, email?: string): boolean {
  const lowered = password.toLowerCase();
  const unleeted = [...lowered].map((ch) => LEET[ch] ?? ch).join('');
  const letters = unleeted.replace(/[^a-z]/g, '');
  if (letters.length < 4 || BREACHED_WORDS.has(letters)) return true;
  // A common word with a little decoration ("MyPassword!") is still that word.
  for (const word of BREACHED_WORDS) {
    if (word.length >= 5 && letters.includes(word) && letters.length - word.length <= 3) return true;
  }
  const local = email
    ?.split('@')[0]
    ?.toLowerCase()
    .replace(/[^a-z]/g, '');
  return Boolean(local && local.length >= 4 && letters.includes(local));
}

/** argon2id digest of a password (m=19 MiB, t=2, p=1). */
export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/** A digest of a random password: verified against when the account is unknown, so timing does not tell. */
let decoy: Promise<string> | undefined;

/** Checks a password; with no digest (unknown account) it still spends the same work and returns false. */
export async function verifyPassword(digest: string | undefined, password: string): Promise<boolean> {
  if (!digest) {
    decoy ??= hashPassword(`decoy-${randomToken()}`);
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  return verify(digest, password).catch(() => false);
}
