import type { FastifyInstance } from 'fastify';

/** An answer as sent: its route (the pattern), status, content type, headers and body text. */
export interface RecordedResponse {
  method: string;
  route: string;
  url: string;
  status: number;
  contentType: string;
  headers: Record<string, unknown>;
  body: string;
}

/**
 * Tests only (`AppDeps.responseRecorder`): hands every answer, as it is sent, to `record`. The contract tests
 * check what they see against the API documents.
 */
export function recordResponses(app: FastifyInstance, record: (answer: RecordedResponse) => void): void {
  app.addHook('onSend', async (request, reply, payload) => {
    record({
      method: request.method,
      route: request.routeOptions.url ?? '',
      url: request.url,
      status: reply.statusCode,
      contentType: String(reply.getHeader('content-type') ?? ''),
      headers: reply.getHeaders(),
      body:
        typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('latin1') : '',
    });
    return payload;
  });
}
