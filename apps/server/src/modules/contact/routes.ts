import { contactSchema, messageResponse } from '@exchange/shared';
import type { FastifyInstance } from 'fastify';
import { docs } from '../../http/openapi.ts';
import type { ContactRouteDeps } from './deps.ts';
import { submitInquiry } from './service.ts';

/** `POST /identity/inquiry` under the Barong prefix: the contact form. */
export async function contactRoutes(app: FastifyInstance, deps: ContactRouteDeps): Promise<void> {
  app.post(
    '/identity/inquiry',
    docs(
      'Contact message',
      { body: contactSchema, response: messageResponse, status: 201 },
      { config: { rateLimit: { max: 5, timeWindow: '1 minute' } } },
    ),
    async (request, reply) => {
      const input = contactSchema.parse(request.body ?? {});
      await deps.captcha.verify(input.captcha_response, request.ip);
      const user = await deps.currentUser(request);
      await submitInquiry(deps, input, {
        userId: user?.id ?? null,
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
      });
      return reply.status(201).send({ message: 'inquiry.created' });
    },
  );
}
