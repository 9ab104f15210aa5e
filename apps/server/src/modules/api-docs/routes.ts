import { API } from '@exchange/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { type CollectedRoute, docs } from '../../http/openapi.ts';
import { openApiDocument } from '../../http/openapi-document.ts';
import { runningVersion } from '../public/version.ts';

/** What `/swagger` answers: an OpenAPI 3.1 document (its own schema is OpenAPI's). */
const openApiShape = z.looseObject({
  openapi: z.literal('3.1.0'),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

/** The documented APIs: Barong (identity), Peatio (trading and accounts), Ranger (websocket) and the dev tools. */
const DOCUMENTS: readonly {
  prefix: string;
  title: string;
  description: string;
  tags: Record<string, string>;
}[] = [
  {
    prefix: API.barong,
    title: 'Barong API (identity)',
    description: 'Registration, sessions, two-factor, API keys, profiles, identity verification.',
    tags: {
      identity: 'Registration, verification, login and logout, password reset: no session needed',
      resource: "The signed-in user's own data and security settings",
      auth: "Barong's authorisation endpoint: a session JWT for a session or an API key",
      public: 'Callbacks of providers (signed webhooks)',
      dev: 'Developer tools (DEV_TOOLS, loopback only)',
      documents: 'This document',
    },
  },
  {
    prefix: API.peatio,
    title: 'Peatio API (trading and accounts)',
    description: 'Markets, order books, orders, balances, deposits, withdrawals, swaps and cards.',
    tags: {
      public: 'Markets, tickers, order books, trades, k-lines, currencies, fees and service state: no login',
      account: "The signed-in member's balances, deposits, withdrawals, beneficiaries, swaps and cards",
      market: "The signed-in member's orders and trades",
      documents: 'This document',
    },
  },
  {
    prefix: API.ranger,
    title: 'Ranger (websocket streams)',
    description:
      'Websocket upgrades: `stream` query parameters name the streams; then `{"event":"subscribe","streams":[...]}`.',
    tags: {
      public: 'Public streams: order books, trades, k-lines, tickers',
      private: "The signed-in member's orders, trades, balances, deposits and withdrawals",
      documents: 'This document',
    },
  },
  {
    prefix: API.admin,
    title: 'Admin API (operator console)',
    description:
      'Staff only: users, identity reviews, four-eyes adjustments, the staff trail. Session, 2FA and step-up.',
    tags: { documents: 'This document' },
  },
  {
    prefix: API.dev,
    title: 'Developer tools',
    description: 'Faucet and block mining on the development chains (DEV_TOOLS only, loopback only).',
    tags: {
      faucet: 'Coins from nowhere on a development chain',
      mine: 'Blocks on a development chain',
      card: 'The simulated card network',
      documents: 'This document',
    },
  },
];

/**
 * `GET <prefix>/swagger` for each API (as Peatio and Barong serve theirs): an OpenAPI 3.1 document generated
 * from the routes' own zod schemas (see `http/openapi.ts`). The developer tools' document only with DEV_TOOLS.
 */
export function apiDocsRoutes(
  app: FastifyInstance,
  routes: readonly CollectedRoute[],
  devTools: boolean,
): void {
  const version = runningVersion().version;
  for (const { prefix, title, description, tags } of DOCUMENTS) {
    if (prefix === API.dev && !devTools) continue;
    // Built once, at the first request: every route is registered by then.
    let built: Record<string, unknown> | undefined;
    app.get(
      `${prefix}/swagger`,
      docs('This OpenAPI document (3.1)', { response: openApiShape }),
      async () => {
        built ??= openApiDocument(routes, prefix, { title, description, version, tags });
        return built;
      },
    );
  }
}
