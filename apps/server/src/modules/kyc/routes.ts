import {
  applicantIdSchema,
  DOCUMENT_LIMITS,
  documentFieldsSchema,
  ERRORS,
  kycDocumentResponse,
  kycReviewResponse,
  kycTokenResponse,
  kycWebhookResultResponse,
  netVerifyInitiateSchema,
  netVerifyStartResponse,
  netVerifyStateResponse,
  scanRefSchema,
} from '@exchange/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { authUser } from '../../http/auth.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { readMultipart, streamMultipart } from '../../http/multipart.ts';
import { docs } from '../../http/openapi.ts';
import { sessionOnly } from '../../http/session-only.ts';
import type { KycRouteDeps } from './deps.ts';
import type { DocumentRow } from './repository.ts';

/** Path of the provider's webhooks, under the identity prefix. */
export const KYC_WEBHOOK_PATH = '/public/kyc/webhook';

const limit = (max: number) => ({ config: { rateLimit: { max, timeWindow: '1 minute' } } });

/**
 * The KYC calls of docs/kyc.md#api (`resource/*`, signed-in users; mounted inside the authenticated
 * scope): the widget token, the applicant id, documents and the net-verify flow.
 */
export async function kycResourceRoutes(app: FastifyInstance, deps: KycRouteDeps): Promise<void> {
  // Uploads are streamed after the session check; a body larger than five full files and their form is
  // refused from its Content-Length, before it is read.
  streamMultipart(app, DOCUMENT_LIMITS.maxFiles * DOCUMENT_LIMITS.maxBytes + 256 * 1024);
  const kyc = deps.kyc;

  // An access token to the provider's upload: identity documents are the browser session's business only.
  app.get(
    '/resource/sumsub/token',
    docs('KYC: provider access token', { response: kycTokenResponse }, sessionOnly(limit(30))),
    async (request) => kyc.token(authUser(request)),
  );

  app.get(
    '/resource/kyc/review',
    docs("KYC: the check's state and the reviewer's comment", { response: kycReviewResponse }),
    async (request) => kyc.review(authUser(request)),
  );

  app.post(
    '/resource/sumsub/applicant_id',
    docs(
      'KYC: register the applicant',
      { body: applicantIdSchema, response: z.object({ applicant_id: z.string() }), status: 201 },
      limit(30),
    ),
    async (request, reply) => {
      const { applicant_id } = applicantIdSchema.parse(request.body ?? {});
      return reply.status(201).send(await kyc.saveApplicantId(authUser(request), applicant_id));
    },
  );

  app.get(
    '/resource/documents',
    docs('KYC: uploaded documents', { response: z.array(kycDocumentResponse) }),
    async (request) => (await kyc.listDocuments(authUser(request))).map(present),
  );

  app.post(
    '/resource/documents',
    docs(
      'KYC: upload identity documents',
      { bodyType: 'multipart', response: z.array(kycDocumentResponse), status: 201 },
      limit(20),
    ),
    async (request, reply) => {
      const form = await readMultipart(request, reply, {
        maxFileBytes: DOCUMENT_LIMITS.maxBytes,
        maxFiles: DOCUMENT_LIMITS.maxFiles,
      });
      if (!form) throw invalid(ERRORS.documentNotMultipart);
      if (form.fileTooLarge) throw invalid(ERRORS.documentTooLarge);
      if (form.tooManyFiles) throw invalid(ERRORS.documentTooMany);
      const fields = documentFieldsSchema.parse(form.fields);
      const stored = await kyc.uploadDocuments(authUser(request), fields, form.files);
      return reply.status(201).send(stored.map(present));
    },
  );

  app.post(
    '/resource/profiles/net_verify/initiate',
    docs(
      'KYC: start a verification',
      { body: netVerifyInitiateSchema, response: netVerifyStartResponse, status: 201 },
      limit(10),
    ),
    async (request, reply) => {
      const { redirectUrl } = netVerifyInitiateSchema.parse(request.body ?? {});
      return reply.status(201).send(await kyc.netVerifyInitiate(authUser(request), redirectUrl));
    },
  );
  const scanRef = (request: FastifyRequest) =>
    scanRefSchema.parse({ ...(request.query as object), ...((request.body as object) ?? {}) }).scan_ref;
  app.post(
    '/resource/profiles/net_verify/success',
    docs('KYC: verification finished on the client', {
      body: scanRefSchema,
      response: netVerifyStateResponse,
    }),
    async (request) => kyc.netVerifySuccess(authUser(request), scanRef(request)),
  );
  app.post(
    '/resource/profiles/net_verify/kyc',
    docs('KYC: verification state of a scan', { body: scanRefSchema, response: netVerifyStateResponse }),
    async (request) => kyc.netVerifyKyc(authUser(request), scanRef(request)),
  );
  app.get(
    '/resource/profiles/net_verify/kyc',
    docs('KYC: verification state', { query: scanRefSchema, response: netVerifyStateResponse }),
    async (request) => kyc.netVerifyKyc(authUser(request), scanRef(request)),
  );
}

/** Largest KYC webhook read: Sumsub's events are about a kilobyte of JSON (a review comment included). */
export const KYC_WEBHOOK_BODY_LIMIT = 64 * 1024;

/** Per client address: the provider's bursts and retries fit, a flood of unsigned posts does not. */
const WEBHOOK_RATE = { config: { rateLimit: { max: 300, timeWindow: '1 minute' } } };

/**
 * The provider's webhooks (identity prefix, no session): the raw body is kept as bytes, because its digest
 * is checked before anything parses it. A post without a digest header is refused before its body is read.
 */
export async function kycWebhookRoutes(app: FastifyInstance, deps: KycRouteDeps): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: KYC_WEBHOOK_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );
  app.post(
    KYC_WEBHOOK_PATH,
    {
      ...docs(
        'KYC provider webhooks (signed with X-Payload-Digest)',
        { bodyType: 'raw', response: kycWebhookResultResponse, errors: [400, 401] },
        WEBHOOK_RATE,
      ),
      preParsing: async (request) => {
        if (typeof request.headers['x-payload-digest'] !== 'string')
          throw new AppError(401, [ERRORS.kycWebhookInvalidDigest]);
      },
    },
    async (request) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      return { status: await deps.kyc.handleWebhook(raw, request.headers) };
    },
  );
}

/** A document as the API shows it (never its content). */
function present(d: DocumentRow) {
  return {
    id: Number(d.id),
    doc_type: d.doc_type,
    doc_number: d.doc_number,
    doc_expire: d.doc_expire,
    upload: { file_name: d.file_name, content_type: d.mime_type, size: d.size_bytes },
    created_at: d.created_at,
  };
}
