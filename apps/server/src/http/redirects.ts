/**
 * `url` as a redirect target of our own site, resolved against `publicUrl`: a path (`/kyc?step=2`) or an
 * absolute URL of `publicUrl`'s origin. Anything that would leave the site is refused with `undefined`: another
 * host (`http://evil.example`), a protocol-relative or backslash path (`//evil.example`, `/\evil.example`), a
 * userinfo trick (`http://localhost:3000@evil.example`) or another scheme (`javascript:`).
 */
export function ownRedirect(url: string | undefined, publicUrl: string): string | undefined {
  if (!url) return undefined;
  const own = new URL(publicUrl).origin;
  try {
    const resolved = new URL(url, own);
    return resolved.origin === own ? resolved.toString() : undefined;
  } catch {
    return undefined;
  }
}
