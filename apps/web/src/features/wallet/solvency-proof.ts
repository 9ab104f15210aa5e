import type { MerklePathStep, SolvencyProofEntity } from '@exchange/shared';

/**
 * The customer's side of the proof of liabilities, written from the published description alone (the server's
 * modules/custody/merkle.ts documents it) so the browser checks the server rather than trusting it:
 * leaf data `v1|uid|salt|balances` (currencies in byte order, `currency:amount`, zeros left out), leaf
 * `SHA-256(0x00 ‖ data)`, inner node `SHA-256(0x01 ‖ left ‖ right)`, hashes in lowercase hex.
 */

/** The leaf text for an account's uid, salt and balances. */
export function leafText(uid: string, salt: string, balances: Record<string, string>): string {
  const entries = Object.entries(balances)
    .filter(([, amount]) => amount !== '0')
    // Currency ids are lowercase ASCII: code-unit order is byte order.
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([currency, amount]) => `${currency}:${amount}`);
  return `v1|${uid}|${salt}|${entries.join(',')}`;
}

const hex = (bytes: ArrayBuffer) =>
  [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');

function fromHex(text: string): Uint8Array {
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return out;
}

async function sha256(prefix: number, ...parts: Uint8Array[]): Promise<string> {
  const size = 1 + parts.reduce((n, p) => n + p.length, 0);
  const buffer = new Uint8Array(size);
  buffer[0] = prefix;
  let at = 1;
  for (const p of parts) {
    buffer.set(p, at);
    at += p.length;
  }
  return hex(await crypto.subtle.digest('SHA-256', buffer));
}

/** `SHA-256(0x00 ‖ UTF-8(text))`, hex. */
export const leafHashOf = (text: string) => sha256(0x00, new TextEncoder().encode(text));

const HEX64 = /^[0-9a-f]{64}$/;

/** Walks `path` up from `leaf`; true when it ends at `root`. */
export async function reachesRoot(
  leaf: string,
  path: readonly MerklePathStep[],
  root: string,
): Promise<boolean> {
  if (!HEX64.test(leaf) || !HEX64.test(root)) return false;
  let hash = leaf;
  for (const step of path) {
    if (!HEX64.test(step.hash)) return false;
    if (step.side === 'left') hash = await sha256(0x01, fromHex(step.hash), fromHex(hash));
    else if (step.side === 'right') hash = await sha256(0x01, fromHex(hash), fromHex(step.hash));
    else return false;
  }
  return hash === root;
}

/**
 * Checks a proof the server gave: the leaf is the hash of these balances under this uid and salt (`leaf`), and
 * the path from it reaches the published root (`root`). Both must hold for the balances to be in the tree.
 */
export async function checkProof(p: SolvencyProofEntity): Promise<{ leaf: boolean; root: boolean }> {
  const text = leafText(p.uid, p.salt, p.balances);
  const leaf = text === p.leaf_data && (await leafHashOf(text)) === p.leaf;
  return { leaf, root: await reachesRoot(p.leaf, p.path, p.root) };
}
