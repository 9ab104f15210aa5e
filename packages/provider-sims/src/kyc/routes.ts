import { randomUUID } from 'node:crypto';
import {
  acceptMultipart,
  checkRequestHeaders,
  checkRequestSignature,
  MAX_DOCUMENT_BYTES,
  ownRedirect,
  parseMultipart,
  readMultipart,
  sniffDocumentType,
  streamMultipart,
} from '@exchange/server/provider-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import {
  actOnApplicant,
  addSimDocument,
  applicantView,
  createSimApplicant,
  findSimApplicant,
  findSimApplicantByExternalId,
  hasCompanyDocument,
  issueAccessToken,
  type SimulatorCredentials,
  simulatorDocumentKey,
  statusView,
} from './store.ts';
import { renderWebSdkPage, simTheme, submitDocuments } from './websdk-page.ts';

/** Where the simulator is mounted in the app. */
export const SIMULATOR_PREFIX = '/kyc-sim';

export interface SimulatorDeps {
  db: pg.Pool;
  credentials: SimulatorCredentials;
  publicUrl: string;
  autoApproveSeconds: number;
  /** Runs the webhook delivery now rather than at its next poll. */
  kick(): void;
}

/** Sumsub's error body. */
const fail = (reply: FastifyReply, code: number, description: string) =>
  reply.status(code).send({ description, code, correlationId: `req-${randomUUID()}` });

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: Buffer;
  }
}

/**
 * The Sumsub-compatible simulator: the REST paths the real adapter calls (signed and checked the same way),
 * and the applicant's verification page (document type, front and back, selfie) that the web app shows.
 */
export async function simulatorRoutes(app: FastifyInstance, deps: SimulatorDeps): Promise<void> {
  app.removeAllContentTypeParsers();
  // The verification page's form: streamed (anyone may post it; the access token is inside the form).
  streamMultipart(app, 3 * MAX_DOCUMENT_BYTES + 64 * 1024);

  await app.register(async (api) => {
    // The REST API checks a signature over exactly the bytes sent, so its bodies are kept raw; a request without
    // a valid app token and a fresh timestamp is refused before its body is read.
    api.removeContentTypeParser('multipart/form-data');
    api.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    );
    acceptMultipart(api, 4 * MAX_DOCUMENT_BYTES + 64 * 1024);
    api.addHook('preParsing', async (request, reply) => {
      const refusal = checkRequestHeaders(deps.credentials, request.headers);
      if (refusal) return fail(reply, 401, `Request signature mismatch (${refusal})`);
    });
    api.addHook('preHandler', async (request, reply) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const refusal = checkRequestSignature(deps.credentials, {
        method: request.method,
        pathWithQuery: request.url.slice(SIMULATOR_PREFIX.length),
        body: raw,
        headers: request.headers,
      });
      if (refusal) return fail(reply, 401, `Request signature mismatch (${refusal})`);
      request.rawBody = raw;
    });
    registerRestRoutes(api, deps);
  });
  registerWebSdkRoutes(app, deps);
}

const json = (request: FastifyRequest): Record<string, unknown> => {
  try {
    const parsed = JSON.parse((request.rawBody ?? Buffer.alloc(0)).toString('utf8') || '{}');
    return parsed && typeof parsed === 'object' ? parsed : {};
  } catch {
    return {};
  }
};
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);
const ttl = (v: unknown) => Math.min(Math.max(Number(v) || 600, 60), 86_400);

function registerRestRoutes(app: FastifyInstance, deps: SimulatorDeps): void {
  app.post('/resources/applicants', async (request, reply) => {
    const levelName = str((request.query as Record<string, unknown>).levelName);
    const body = json(request);
    const externalUserId = str(body.externalUserId);
    if (!levelName || !externalUserId) return fail(reply, 400, 'levelName and externalUserId are required');
    const existing = await findSimApplicantByExternalId(deps.db, externalUserId);
    if (existing && existing.level_name === levelName)
      return fail(
        reply,
        409,
        `Applicant with external user id '${externalUserId}' already exists: ${existing.id}`,
      );
    const type = body.type === undefined ? 'individual' : body.type;
    if (type !== 'individual' && type !== 'company')
      return fail(reply, 400, 'type must be individual or company');
    const info = (body.fixedInfo ?? {}) as Record<string, unknown>;
    // A company (KYB) applicant is created with its company, as Sumsub requires `fixedInfo.companyInfo`.
    const company = info.companyInfo as Record<string, unknown> | undefined;
    if (type === 'company' && (!str(company?.companyName) || !str(company?.registrationNumber)))
      return fail(reply, 400, 'fixedInfo.companyInfo.companyName and registrationNumber are required');
    const { applicant } = await createSimApplicant(deps.db, {
      externalUserId,
      levelName,
      email: str(body.email),
      phone: str(body.phone),
      info,
      type,
    });
    deps.kick();
    return reply.status(201).send(applicantView(applicant));
  });

  app.get('/resources/applicants/:ref/one', async (request, reply) => {
    const ref = (request.params as { ref: string }).ref;
    const byExternal = /^-;externalUserId=(.+)$/.exec(ref);
    const applicant = byExternal
      ? await findSimApplicantByExternalId(deps.db, decodeURIComponent(byExternal[1]!))
      : await findSimApplicant(deps.db, ref);
    if (!applicant) return fail(reply, 404, 'Applicant not found');
    return applicantView(applicant);
  });

  app.get('/resources/applicants/:id/status', async (request, reply) => {
    const applicant = await findSimApplicant(deps.db, (request.params as { id: string }).id);
    if (!applicant) return fail(reply, 404, 'Applicant not found');
    return statusView(applicant);
  });

  const accessToken = async (reply: FastifyReply, input: Record<string, unknown>) => {
    const userId = str(input.userId);
    const levelName = str(input.levelName);
    if (!userId || !levelName) return fail(reply, 400, 'userId and levelName are required');
    // As Sumsub does: the WebSDK creates the applicant on first use if there is none.
    await createSimApplicant(deps.db, { externalUserId: userId, levelName });
    deps.kick();
    return { token: await issueAccessToken(deps.db, userId, levelName, ttl(input.ttlInSecs)), userId };
  };
  app.post('/resources/accessTokens/sdk', async (request, reply) => accessToken(reply, json(request)));
  app.post('/resources/accessTokens', async (request, reply) =>
    accessToken(reply, request.query as Record<string, unknown>),
  );

  app.post('/resources/sdkIntegrations/levels/-/websdkLink', async (request, reply) => {
    const body = json(request);
    const userId = str(body.userId);
    const levelName = str(body.levelName);
    if (!userId || !levelName) return fail(reply, 400, 'userId and levelName are required');
    await createSimApplicant(deps.db, { externalUserId: userId, levelName });
    deps.kick();
    const token = await issueAccessToken(deps.db, userId, levelName, ttl(body.ttlInSecs));
    const redirect = str((body.redirect as Record<string, unknown> | undefined)?.successUrl);
    const query = new URLSearchParams({
      access_token: token,
      ...(redirect ? { redirect_url: redirect } : {}),
    });
    return { url: `${deps.publicUrl}${SIMULATOR_PREFIX}/websdk?${query}` };
  });

  app.post('/resources/applicants/:id/info/idDoc', async (request, reply) => {
    const applicant = await findSimApplicant(deps.db, (request.params as { id: string }).id);
    if (!applicant) return fail(reply, 404, 'Applicant not found');
    const form = await parseMultipart(
      request.rawBody ?? Buffer.alloc(0),
      request.headers['content-type'] ?? '',
      {
        maxFileBytes: MAX_DOCUMENT_BYTES,
        maxFiles: 1,
      },
    ).catch(() => null);
    const file = form?.files[0];
    let metadata: Record<string, unknown> = {};
    try {
      metadata = JSON.parse(form?.fields.metadata ?? '{}');
    } catch {
      return fail(reply, 400, 'metadata is not JSON');
    }
    const idDocType = str(metadata.idDocType);
    if (!file || !idDocType) return fail(reply, 400, 'metadata.idDocType and content are required');
    const mimeType = sniffDocumentType(file.content);
    if (file.truncated || !mimeType) return fail(reply, 400, 'Unsupported or too large file');
    const id = await addSimDocument(deps.db, simulatorDocumentKey(deps.credentials), applicant.id, {
      idDocType,
      idDocSubType: str(metadata.idDocSubType),
      country: str(metadata.country),
      fileName: file.fileName,
      mimeType,
      content: file.content,
    });
    reply.header('X-Image-Id', id);
    return { idDocType, country: str(metadata.country), idDocSubType: str(metadata.idDocSubType) };
  });

  app.post('/resources/applicants/:id/status/pending', async (request, reply) => {
    // The KYB level asks for the company's documents: a company applicant without one cannot be submitted.
    const applicant = await findSimApplicant(deps.db, (request.params as { id: string }).id);
    if (applicant?.applicant_type === 'company') {
      if (!(await hasCompanyDocument(deps.db, applicant.id)))
        return fail(reply, 400, 'Required company documents are missing');
    }
    const result = await actOnApplicant(
      deps.db,
      (request.params as { id: string }).id,
      'submit',
      deps.autoApproveSeconds,
    );
    if (typeof result === 'string') return fail(reply, result === 'not_found' ? 404 : 409, result);
    deps.kick();
    return { ok: 1 };
  });

  app.post('/resources/applicants/:id/reset', async (request, reply) => {
    const result = await actOnApplicant(deps.db, (request.params as { id: string }).id, 'reset');
    if (typeof result === 'string') return fail(reply, 404, result);
    deps.kick();
    return { ok: 1 };
  });
}

/** The applicant's own verification page, reached with a web-SDK access token (the simulator's "WebSDK"). */
function registerWebSdkRoutes(app: FastifyInstance, deps: SimulatorDeps): void {
  const page = (reply: FastifyReply, status: number, html: string) =>
    reply
      .status(status)
      .header(
        'content-security-policy',
        "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'self'; base-uri 'none'",
      )
      .header('x-frame-options', 'SAMEORIGIN')
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(html);

  app.get('/websdk', async (request, reply) => {
    const q = request.query as Record<string, string | undefined>;
    const view = await renderWebSdkPage(
      deps.db,
      q.access_token ?? '',
      ownRedirect(q.redirect_url, deps.publicUrl),
      null,
      simTheme(q.theme),
    );
    return page(reply, view.status, view.html);
  });

  app.post('/websdk/submit', async (request, reply) => {
    const form = await readMultipart(request, reply, { maxFileBytes: MAX_DOCUMENT_BYTES, maxFiles: 3 });
    const token = form?.fields.access_token ?? '';
    const redirect = ownRedirect(form?.fields.redirect_url, deps.publicUrl);
    const outcome = !form
      ? 'Please upload your documents.'
      : form.fileTooLarge
        ? 'Each file must be at most 2 MB.'
        : await submitDocuments(deps, token, form);
    if (outcome !== null) {
      const view = await renderWebSdkPage(deps.db, token, redirect, outcome, simTheme(form?.fields.theme));
      return page(reply, view.status === 200 ? 422 : view.status, view.html);
    }
    deps.kick();
    const query = new URLSearchParams({
      access_token: token,
      ...(redirect ? { redirect_url: redirect } : {}),
      theme: simTheme(form?.fields.theme),
    });
    return reply.redirect(`${SIMULATOR_PREFIX}/websdk?${query}`, 303);
  });
}
