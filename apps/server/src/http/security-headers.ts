import helmet from 'helmet';
import type { Config } from '../config.ts';

/** The content security policy; with the real Sumsub provider its WebSDK script, frames and calls are allowed. */
function contentSecurityPolicy(config: Config) {
  const sumsub =
    config.kyc.provider === 'sumsub' ? [new URL(config.kyc.webSdkUrl).origin, 'https://*.sumsub.com'] : [];
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...sumsub],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:', ...sumsub],
    connectSrc: ["'self'", 'ws:', 'wss:', ...sumsub],
    frameSrc: ["'self'", ...sumsub],
    workerSrc: ["'self'", 'blob:'],
    fontSrc: ["'self'", 'data:'],
    objectSrc: ["'none'"],
    frameAncestors: ["'none'"],
  };
}

/**
 * The headers helmet sets, read once from a stand-in response: helmet's answer depends only on the configuration,
 * and setting twelve headers one by one through its middleware chain cost a twentieth of a request's CPU.
 */
export async function helmetHeaders(config: Config): Promise<Record<string, string>> {
  const middleware = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(config) },
    crossOriginEmbedderPolicy: false,
  });
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  await new Promise<void>((resolve, reject) =>
    middleware(
      {} as Parameters<typeof middleware>[0],
      response as unknown as Parameters<typeof middleware>[1],
      (err?: unknown) => (err ? reject(err) : resolve()),
    ),
  );
  return headers;
}

/**
 * The security headers of API answers (JSON, and the files the operator console opens inline), after OWASP's REST
 * Security Cheat Sheet: nothing may run, load or frame in them (`default-src 'none'`), they are never sniffed or
 * embedded elsewhere, and HSTS holds. The headers that only a rendered document uses (COOP, Origin-Agent-Cluster,
 * DNS prefetch, X-Download-Options, cross-domain policies, X-XSS-Protection) are left out: on about 1 KB of headers
 * per answer they were half its bytes, and the kernel's time to send them was a third of a warm request.
 */
export function apiSecurityHeaders(documentHeaders: Record<string, string>): Record<string, string> {
  const kept = [
    'strict-transport-security',
    'x-content-type-options',
    'cross-origin-resource-policy',
    'referrer-policy',
  ];
  const headers: Record<string, string> = {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-frame-options': 'DENY',
  };
  for (const name of kept) {
    const value = documentHeaders[name];
    if (value !== undefined) headers[name] = value;
  }
  return headers;
}
