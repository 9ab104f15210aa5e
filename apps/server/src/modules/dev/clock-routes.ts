import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { TestClock } from '../../clock.ts';
import { loopbackOnly } from '../../http/loopback.ts';
import { docs } from '../../http/openapi.ts';

/** At most a year at a time: enough for any expiry or window a test waits out. */
const MAX_ADVANCE_MS = 366 * 24 * 3_600_000;

const advanceSchema = z.object({ advance_ms: z.number().int().min(0).max(MAX_ADVANCE_MS) });
const clockResponse = z.object({
  /** The server's time now, ISO 8601. */
  now: z.string(),
  /** How far the server's clock is ahead of the machine's. */
  offset_ms: z.number(),
});

/**
 * The test-only clock control: moves the server's clock (a TestClock) ahead, so an end-to-end test waits out a
 * rate-limit window or an expiry without waiting. app.ts mounts it only when NODE_ENV=test (never in development
 * or production, dev-tools.test.ts shows it absent there), and it answers only requests made on this machine.
 */
export async function clockRoutes(app: FastifyInstance, clock: TestClock): Promise<void> {
  const state = () => ({ now: new Date(clock.now()).toISOString(), offset_ms: clock.offset });
  app.get(
    '/clock',
    docs(
      'Test only: the server clock',
      { response: clockResponse, errors: [403] },
      { onRequest: loopbackOnly },
    ),
    async () => state(),
  );
  app.post(
    '/clock',
    docs(
      'Test only: move the server clock ahead',
      { body: advanceSchema, response: clockResponse, errors: [403] },
      { onRequest: loopbackOnly },
    ),
    async (request) => {
      clock.advance(advanceSchema.parse(request.body ?? {}).advance_ms);
      return state();
    },
  );
}
