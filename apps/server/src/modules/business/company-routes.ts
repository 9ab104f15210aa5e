import {
  companyDocumentFieldsSchema,
  companyResponse,
  companySchema,
  DOCUMENT_LIMITS,
  ERRORS,
} from '@exchange/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authUser } from '../../http/auth.ts';
import { invalid } from '../../http/errors.ts';
import { readMultipart, streamMultipart } from '../../http/multipart.ts';
import { docs } from '../../http/openapi.ts';
import { CompanyService } from './company-service.ts';
import type { BusinessRouteDeps } from './deps.ts';

const limit = (max: number) => ({ config: { rateLimit: { max, timeWindow: '1 minute' } } });

/**
 * A business account's company (issue 31, part 3), Barong style under `/resource/company` (signed-in users;
 * mounted inside the authenticated scope): read it, enter or correct it, upload the commercial register extract,
 * and submit it to the provider's company (KYB) verification. A personal account is answered 403
 * `resource.company.personal_account`; there is no way to name another account's company.
 */
/** Where a request came from, for the security log. */
const origin = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'] ?? null,
});

export async function companyRoutes(app: FastifyInstance, deps: BusinessRouteDeps): Promise<void> {
  // One extract per upload, streamed after the session check; a larger body is refused from its Content-Length.
  streamMultipart(app, DOCUMENT_LIMITS.maxBytes + 64 * 1024);
  const companies = new CompanyService({
    db: deps.db,
    keys: deps.keys,
    clock: deps.clock,
    provider: deps.kyc.port,
    kybLevelName: deps.kyc.kybLevelName,
    log: deps.logger,
  });
  const errors = [403, 404, 422];

  app.get(
    '/resource/company',
    docs('Business account: the company, its people and documents', { response: companyResponse, errors }),
    async (request) => companies.get(authUser(request)),
  );

  app.put(
    '/resource/company',
    docs(
      'Business account: enter or correct the company (owners above 25 % listed as beneficial owners)',
      { body: companySchema, response: companyResponse, errors },
      limit(30),
    ),
    async (request) =>
      companies.save(authUser(request), companySchema.parse(request.body ?? {}), origin(request)),
  );

  app.post(
    '/resource/company/documents',
    docs(
      'Business account: upload the commercial register extract (issued within the last year)',
      { bodyType: 'multipart', response: companyResponse, status: 201, errors },
      limit(20),
    ),
    async (request, reply) => {
      const form = await readMultipart(request, reply, {
        maxFileBytes: DOCUMENT_LIMITS.maxBytes,
        maxFiles: 1,
      });
      if (!form) throw invalid(ERRORS.documentNotMultipart);
      if (form.fileTooLarge) throw invalid(ERRORS.documentTooLarge);
      if (form.tooManyFiles) throw invalid(ERRORS.documentTooMany);
      const fields = companyDocumentFieldsSchema.parse(form.fields);
      const company = await companies.uploadExtract(
        authUser(request),
        fields.issued_on,
        form.files,
        origin(request),
      );
      return reply.status(201).send(company);
    },
  );

  app.post(
    '/resource/company/submit',
    docs(
      "Business account: submit the company to the provider's company (KYB) verification",
      { response: companyResponse, errors: [...errors, 503] },
      limit(10),
    ),
    async (request) => companies.submit(authUser(request), origin(request)),
  );
}
