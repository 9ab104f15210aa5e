import { signature } from '../modules/api-keys/hmac.ts';

/** An API answer other than 2xx, or a request that never got one. */
export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    readonly errors: string[],
    what: string,
  ) {
    super(`${what}: ${status === 0 ? 'no answer' : status} ${errors.join(', ')}`.trim());
  }
}

/**
 * A Peatio API client that signs every request with an API key (X-Auth-Apikey, X-Auth-Nonce, X-Auth-Signature),
 * as any outside program does: it knows the base URL, the kid and the secret, and nothing of the server's inside.
 */
export class SignedApiClient {
  private lastNonce = 0;

  constructor(
    private readonly baseUrl: string,
    private readonly kid: string,
    private readonly secret: string,
    private readonly timeoutMs = 10_000,
  ) {}

  /** Calls `method path` (under /api/v2/peatio) and returns the parsed JSON answer; throws {@link ApiCallError}. */
  async call<T>(method: 'GET' | 'POST', path: string, body?: object): Promise<T> {
    // The server refuses a nonce it has seen for this key, so two requests in one millisecond need two nonces.
    const nonce = String(Math.max(Date.now(), this.lastNonce + 1));
    this.lastNonce = Number(nonce);
    const what = `${method} ${path}`;
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}/api/v2/peatio${path}`, {
        method,
        headers: {
          'x-auth-apikey': this.kid,
          'x-auth-nonce': nonce,
          'x-auth-signature': signature(this.secret, nonce, this.kid),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      throw new ApiCallError(0, [err instanceof Error ? err.message : String(err)], what);
    }
    const text = await response.text();
    const json = text ? (JSON.parse(text) as unknown) : undefined;
    if (!response.ok) {
      const errors = (json as { errors?: unknown } | undefined)?.errors;
      throw new ApiCallError(response.status, Array.isArray(errors) ? errors.map(String) : [], what);
    }
    return json as T;
  }
}
