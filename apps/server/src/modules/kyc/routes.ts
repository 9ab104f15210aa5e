import {
  applicantIdSchema,
  DOCUMENT_LIMITS,
  documentFieldsSchema,
  ERRORS,
  netVerifyInitiateSchema,
  scanRefSchema,
} from '@exchange/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app.ts';
import { authUser } from '../../http/auth.ts';
import { invalid } from '../../http/errors.ts';
import { acceptMultipart, parseMultipart } from '../../http/multipart.ts';
import { docs } from '../../http/openapi.ts';
import { sessionOnly } from '../../http/session-only.ts';
import type { DocumentRow } from './repository.ts';

/** Path of the provider's webhooks, under the identity prefix. */
export const KYC_WEBHOOK_PATH = '/public/kyc/webhook';

const limit = (max: number) => ({ config: { rateLimit: { max, timeWindow: '1 minute' } } });

/**
 * The KYC calls of the trading spec §7 (`resource/*`, signed-in users; mounted inside the authenticated
 * scope): the widget token, the applicant id, documents and the net-verify flow.
 */
export async function kycResourceRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  acceptMultipart(app, DOCUMENT_LIMITS.maxFiles * DOCUMENT_LIMITS.maxBytes + 256 * 1024);
  const kyc = deps.kyc;

  // An access token to the provider's upload: identity documents are the browser session's business only.
  app.get(
    '/resource/sumsub/token',
    docs('KYC: provider access token', {}, sessionOnly(limit(30))),
    async (request) => kyc.token(authUser(request)),
  );

  app.get(
    '/resource/kyc/review',
    docs("KYC: the check's state and the reviewer's comment"),
    async (request) => kyc.review(authUser(request)),
  );

  app.post(
    '/resource/sumsub/applicant_id',
    docs('KYC: register the applicant', { body: applicantIdSchema }, limit(30)),
    async (request, reply) => {
      const { applicant_id } = applicantIdSchema.parse(request.body ?? {});
      return reply.status(201).send(await kyc.saveApplicantId(authUser(request), applicant_id));
    },
  );

  app.get('/resource/documents', docs('KYC: uploaded documents'), async (request) =>
    (await kyc.listDocuments(authUser(request))).map(present),
  );

  app.post(
    '/resource/documents',
    docs('KYC: upload identity documents', { bodyType: 'multipart' }, limit(20)),
    async (request, reply) => {
      if (!Buffer.isBuffer(request.body) || !String(request.headers['content-type']).startsWith('multipart/'))
        throw invalid(ERRORS.documentNotMultipart);
      const form = await parseMultipart(request.body, request.headers['content-type'] ?? '', {
        maxFileBytes: DOCUMENT_LIMITS.maxBytes,
        maxFiles: DOCUMENT_LIMITS.maxFiles,
      }).catch(() => {
        throw invalid(ERRORS.documentNotMultipart);
      });
      if (form.tooManyFiles) throw invalid(ERRORS.documentTooMany);
      const fields = documentFieldsSchema.parse(form.fields);
      const stored = await kyc.uploadDocuments(authUser(request), fields, form.files);
      return reply.status(201).send(stored.map(present));
    },
  );

  app.post(
    '/resource/profiles/net_verify/initiate',
    docs('KYC: start a verification', { body: netVerifyInitiateSchema }, limit(10)),
    async (request, reply) => {
      const { redirectUrl } = netVerifyInitiateSchema.parse(request.body ?? {});
      return reply.status(201).send(await kyc.netVerifyInitiate(authUser(request), redirectUrl));
    },
  );
  const scanRef = (request: FastifyRequest) =>
    scanRefSchema.parse({ ...(request.query as object), ...((request.body as object) ?? {}) }).scan_ref;
  app.post(
    '/resource/profiles/net_verify/success',
    docs('KYC: verification finished on the client'),
    async (request) => kyc.netVerifySuccess(authUser(request), scanRef(request)),
  );
  app.post('/resource/profiles/net_verify/kyc', docs('KYC: verification state of a scan'), async (request) =>
    kyc.netVerifyKyc(authUser(request), scanRef(request)),
  );
  app.get('/resource/profiles/net_verify/kyc', docs('KYC: verification state'), async (request) =>
    kyc.netVerifyKyc(authUser(request), scanRef(request)),
  );
}

/**
 * The provider's webhooks (identity prefix, no session): the raw body is kept as bytes, because its digest
 * is checked before anything parses it.
 */
export async function kycWebhookRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.post(KYC_WEBHOOK_PATH, docs('KYC provider webhooks (signed)'), async (request) => {
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    return { status: await deps.kyc.handleWebhook(raw, request.headers) };
  });
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
