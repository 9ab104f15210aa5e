import { randomBytes } from 'node:crypto';
import { type Applicant, type ApplicantStatus, type KycProvider, KycProviderError } from './port.ts';
import { signedHeaders } from './signing.ts';

export interface SumsubOptions {
  /** `https://api.sumsub.com`, or the simulator's address; a function when it is known only after listen. */
  baseUrl: string | (() => string);
  appToken: string;
  secretKey: string;
  kind?: 'simulator' | 'sumsub';
  /** Per-call time limit. */
  timeoutMs?: number;
}

/**
 * The Sumsub REST adapter: every call signed with `X-App-Token`, `X-App-Access-Ts` and `X-App-Access-Sig`.
 * It speaks to api.sumsub.com, or to the built-in simulator, which answers the same paths the same way.
 */
export function createSumsubProvider(options: SumsubOptions): KycProvider {
  const base = () =>
    (typeof options.baseUrl === 'function' ? options.baseUrl() : options.baseUrl).replace(/\/+$/, '');

  async function call<T>(
    method: 'GET' | 'POST',
    pathWithQuery: string,
    body?: { json: unknown } | { raw: Buffer; contentType: string },
  ): Promise<{ status: number; data: T; headers: Headers }> {
    let payload: Buffer | undefined;
    let contentType: string | undefined;
    if (body && 'json' in body) {
      payload = Buffer.from(JSON.stringify(body.json));
      contentType = 'application/json';
    } else if (body) {
      payload = body.raw;
      contentType = body.contentType;
    }
    const headers: Record<string, string> = {
      Accept: 'application/json',
      ...signedHeaders(options.appToken, options.secretKey, method, pathWithQuery, payload ?? ''),
    };
    if (contentType) headers['Content-Type'] = contentType;
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${base()}${pathWithQuery}`, {
        method,
        headers,
        body: payload,
        signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
      });
      // The body is part of the answer: a connection that ends while it is read is the provider's failure too.
      text = await response.text();
    } catch (err) {
      throw new KycProviderError(503, `kyc provider unreachable: ${(err as Error).message}`);
    }
    let data: unknown;
    try {
      data = text ? JSON.parse(text) : undefined;
    } catch {
      data = undefined;
    }
    if (!response.ok) {
      const description = (data as { description?: string } | undefined)?.description ?? text.slice(0, 200);
      throw new KycProviderError(response.status, `kyc provider ${response.status}: ${description}`);
    }
    return { status: response.status, data: data as T, headers: response.headers };
  }

  const orNull = async <T>(work: Promise<T>): Promise<T | null> => {
    try {
      return await work;
    } catch (err) {
      if (err instanceof KycProviderError && err.status === 404) return null;
      throw err;
    }
  };

  return {
    kind: options.kind ?? 'sumsub',
    async createApplicant(input) {
      const { data } = await call<Applicant>(
        'POST',
        `/resources/applicants?levelName=${encodeURIComponent(input.levelName)}`,
        {
          json: {
            externalUserId: input.externalUserId,
            email: input.email,
            phone: input.phone,
            fixedInfo: input.fixedInfo,
            ...(input.type ? { type: input.type } : {}),
          },
        },
      );
      return data;
    },
    findApplicantByExternalId: (externalUserId) =>
      orNull(
        call<Applicant>(
          'GET',
          `/resources/applicants/-;externalUserId=${encodeURIComponent(externalUserId)}/one`,
        ).then((r) => r.data),
      ),
    getApplicant: (applicantId) =>
      orNull(
        call<Applicant>('GET', `/resources/applicants/${encodeURIComponent(applicantId)}/one`).then(
          (r) => r.data,
        ),
      ),
    async getApplicantStatus(applicantId) {
      return (
        await call<ApplicantStatus>('GET', `/resources/applicants/${encodeURIComponent(applicantId)}/status`)
      ).data;
    },
    async accessToken(input) {
      return (
        await call<{ token: string; userId: string }>('POST', '/resources/accessTokens/sdk', { json: input })
      ).data;
    },
    async webSdkLink(input) {
      const { data } = await call<{ url: string }>('POST', '/resources/sdkIntegrations/levels/-/websdkLink', {
        json: {
          levelName: input.levelName,
          userId: input.userId,
          ttlInSecs: input.ttlInSecs,
          redirect: { successUrl: input.redirectUrl, rejectUrl: input.redirectUrl },
        },
      });
      return data;
    },
    async addDocument(applicantId, metadata, file) {
      const form = multipart([
        { name: 'metadata', value: JSON.stringify(metadata) },
        { name: 'content', fileName: file.name, contentType: file.mimeType, value: file.content },
      ]);
      const { data, headers } = await call<{ id?: string }>(
        'POST',
        `/resources/applicants/${encodeURIComponent(applicantId)}/info/idDoc`,
        { raw: form.body, contentType: form.contentType },
      );
      return { id: headers.get('x-image-id') ?? data?.id ?? '' };
    },
    async requestCheck(applicantId) {
      await call('POST', `/resources/applicants/${encodeURIComponent(applicantId)}/status/pending`);
    },
  };
}

/** A multipart/form-data body built in memory, so that the exact bytes sent can be signed. */
export function multipart(
  parts: { name: string; value: string | Buffer; fileName?: string; contentType?: string }[],
): {
  body: Buffer;
  contentType: string;
} {
  const boundary = `----exchange${randomBytes(12).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.fileName ? `; filename="${part.fileName.replace(/"/g, '')}"` : ''}`;
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.contentType ? `Content-Type: ${part.contentType}\r\n` : ''}\r\n`;
    chunks.push(
      Buffer.from(head),
      Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
