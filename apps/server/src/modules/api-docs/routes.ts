import { API } from '@exchange/shared';
import type { FastifyInstance } from 'fastify';
import { type CollectedRoute, docs, openApiDocument } from '../../http/openapi.ts';

/** The documented APIs: Barong (identity), Peatio (trading and accounts), Ranger (websocket) and the dev tools. */
const DOCUMENTS = [
  {
    prefix: API.barong,
    title: 'Barong API (identity)',
    description: 'Registration, sessions, two-factor, API keys, profiles, identity verification.',
  },
  {
    prefix: API.peatio,
    title: 'Peatio API (trading and accounts)',
    description: 'Markets, order books, orders, balances, deposits, withdrawals, swaps and cards.',
  },
  {
    prefix: API.ranger,
    title: 'Ranger (websocket streams)',
    description:
      'Websocket upgrades: `stream` query parameters name the streams; then `{"event":"subscribe","streams":[...]}`.',
  },
  {
    prefix: API.admin,
    title: 'Admin API (operator console)',
    description:
      'Staff only: users, identity reviews, four-eyes adjustments, the staff trail. Session, 2FA and step-up.',
  },
  {
    prefix: API.dev,
    title: 'Developer tools',
    description: 'Faucet and block mining on the development chains (DEV_TOOLS only, loopback only).',
  },
] as const;

/**
 * `GET <prefix>/swagger` for each API (as Peatio and Barong serve theirs): an OpenAPI 3.1 document generated
 * from the routes' own zod schemas (see `http/openapi.ts`). The developer tools' document only with DEV_TOOLS.
 */
export function apiDocsRoutes(
  app: FastifyInstance,
  routes: readonly CollectedRoute[],
  devTools: boolean,
): void {
  for (const { prefix, title, description } of DOCUMENTS) {
    if (prefix === API.dev && !devTools) continue;
    app.get(`${prefix}/swagger`, docs('This OpenAPI document'), async () =>
      openApiDocument(routes, prefix, { title, description }),
    );
  }
}
