/**
 * Request-body encryption (docs/accounts.md#api): each JSON body is AES-256-GCM encrypted under a fresh key, which is
 * wrapped with the server's RSA public key (RSA-OAEP, SHA-256). The server opens `{data, iv, key}` before validation.
 */

/** The key type as WebCrypto returns it (spelled this way so the module type-checks under Node too). */
type RsaKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

let serverKey: Promise<RsaKey> | undefined;

function base64(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let text = '';
  for (const byte of view) text += String.fromCharCode(byte);
  return btoa(text);
}

async function importServerKey(pem: string): Promise<RsaKey> {
  const body = pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
  const der = Uint8Array.from(atob(body), (c) => c.charCodeAt(0));
  return crypto.subtle.importKey('spki', der, { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
}

/** Fetches (once) the server's public key from `url`. */
function publicKey(url: string): Promise<RsaKey> {
  serverKey ??= fetch(url, { credentials: 'include' })
    .then((r) => {
      if (!r.ok) throw new Error(`encryption key: ${r.status}`);
      return r.json() as Promise<{ public_key: string }>;
    })
    .then((k) => importServerKey(k.public_key))
    .catch((err) => {
      serverKey = undefined;
      throw err;
    });
  return serverKey;
}

/** Encrypts a JSON-serialisable body into the `{data, iv, key}` envelope. */
export async function encryptBody(
  body: unknown,
  keyUrl: string,
): Promise<{ data: string; iv: string; key: string }> {
  const rsa = await publicKey(keyUrl);
  const aes = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, true, ['encrypt']);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv },
    aes,
    new TextEncoder().encode(JSON.stringify(body)),
  );
  const rawKey = await crypto.subtle.exportKey('raw', aes);
  const key = await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, rsa, rawKey);
  return { data: base64(data), iv: base64(iv), key: base64(key) };
}
