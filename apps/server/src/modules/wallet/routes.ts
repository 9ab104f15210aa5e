import {
  amountQuoteQuery,
  amountQuoteResponse,
  createSwapSchema,
  depositAddressResponse,
  fiatCallbackResponse,
  fiatCallbackSchema,
  fiatWithdrawalResponse,
  fiatWithdrawResponse,
  fiatWithdrawSchema,
  internalTransferSchema,
  lineChartResponse,
  pieChartResponse,
  swapResponse,
  transactionItemResponse,
  transactionsQuery,
  WALLET_ERRORS,
  walletHistoryItemResponse,
  walletHistoryQuery,
  withdrawPermissionResponse,
  withdrawSchema,
} from '@exchange/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { authUser, requireAuth } from '../../http/auth.ts';
import { invalid, notFound } from '../../http/errors.ts';
import { docs } from '../../http/openapi.ts';
import { paged } from '../../http/paging.ts';
import { currentDepositAddress, depositNetworkOf } from './addresses.ts';
import type { BeneficiaryDeps } from './beneficiaries.ts';
import { beneficiaryRoutes } from './beneficiary-routes.ts';
import type { WalletRouteDeps } from './deps.ts';
import { createFiatWithdrawal, fiatCallback, findFiat, listFiat } from './fiat.ts';
import { checkRange, depositByTxid, historyItem, listHistory, listSwaps } from './history.ts';
import { executeSwap, quoteSwap } from './swaps.ts';
import { listTransactions } from './transactions.ts';
import { createTransfer } from './transfers.ts';
import { lineChart, pieChart } from './valuation.ts';
import { createWithdrawal, withdrawPermission } from './withdrawals.ts';

const _idParam = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const addressQuery = z.object({ blockchain_key: z.string().max(64).optional() });
/** Fiat currencies deposit as USDT (docs/wallet.md#api: "usd and eur use usdt"). */
const DEPOSIT_ALIAS: Record<string, string> = { usd: 'usdt', eur: 'usdt' };

/** A transaction id in a path: a chain's hash or our internal reference, never longer than 128 characters. */
const txidParams = z.object({ txid: z.string().min(1).max(128) });

/** The per-account rate limit of the wallet's changing calls, as a route's options. */
export interface WalletLimits {
  config: { rateLimit: { max: number; timeWindow: string; keyGenerator: (r: FastifyRequest) => string } };
}

/**
 * Another module's customer calls registered in the wallet's scope, with its authentication and `limits` (the
 * travel rule's): the app passes them in, so this module imports no other module's route file.
 */
export type WalletSection = (app: FastifyInstance, limits: WalletLimits) => void;

/** Peatio `account/*` wallet calls of the signed-in user (session or API key). */
export async function walletRoutes(
  app: FastifyInstance,
  deps: WalletRouteDeps,
  sections: WalletSection[] = [],
): Promise<void> {
  app.addHook('onRequest', requireAuth(deps.users, deps.sessions, deps.apiKeys));
  const { wallet } = deps;
  const uid = (request: FastifyRequest) => authUser(request).id;
  const beneficiaryDeps: BeneficiaryDeps = {
    db: deps.db,
    keys: deps.keys,
    mail: deps.mail,
    chains: wallet.chains,
    clock: deps.clock,
    travelRule: deps.config.travelRule,
  };
  // Per account, so users behind one address do not share a budget.
  const strict: WalletLimits = {
    config: {
      rateLimit: {
        max: 60,
        timeWindow: '1 minute',
        keyGenerator: (r: FastifyRequest) => `wallet:${r.auth?.user.id ?? r.ip}`,
      },
    },
  };

  app.get(
    '/account/balances/pie_chart',
    docs('Balances by USDT value', { response: pieChartResponse }),
    async (request) => pieChart(deps.core, Number(uid(request))),
  );
  app.get(
    '/account/balances/line_chart',
    docs('Portfolio value over time (the last 7 days)', { response: lineChartResponse }),
    async (request) => lineChart(deps.db, deps.core, Number(uid(request))),
  );

  app.get(
    '/account/deposit_address/:currency',
    docs('Deposit address of a currency (and network)', {
      query: addressQuery,
      response: depositAddressResponse,
    }),
    async (request) => {
      const requested = z
        .string()
        .max(10)
        .parse((request.params as { currency: string }).currency)
        .toLowerCase();
      const currency = DEPOSIT_ALIAS[requested] ?? requested;
      const { blockchain_key } = addressQuery.parse(request.query);
      const row = await depositNetworkOf(deps.db, currency, blockchain_key ?? null);
      const network = row ? wallet.chains.get(row.blockchain_key) : undefined;
      if (!row || !network) throw invalid(WALLET_ERRORS.networkNotFound);
      if (!row.deposit_enabled) throw invalid(WALLET_ERRORS.depositDisabled);
      const address = await currentDepositAddress(deps.db, network, Number(uid(request)));
      // `currencies` as Peatio's PaymentAddress has it: BaseApp attaches the address only when it is present.
      return { currency, currencies: [currency], blockchain_key: network.key, address, state: 'active' };
    },
  );

  const lists = [
    ['/account/deposits', 'deposits'],
    ['/account/withdraws', 'withdrawals'],
    ['/account/adjustments', 'adjustments'],
    ['/account/balance_adjustments', 'adjustments'],
  ] as const;
  for (const [path, kind] of lists) {
    app.get(
      path,
      docs('Deposits, withdrawals or adjustments, paged', {
        query: walletHistoryQuery,
        response: z.array(walletHistoryItemResponse),
        paged: true,
      }),
      async (request, reply) => {
        const q = walletHistoryQuery.parse(request.query);
        checkRange(q, deps.clock);
        const page = await listHistory(
          deps.db,
          uid(request),
          kind,
          q,
          wallet.confirmations,
          wallet.latestHeight,
        );
        paged(reply, page.total, q.page, q.limit);
        return page.items;
      },
    );
  }

  app.get(
    '/account/deposits/:txid',
    docs('One deposit of the user by its transaction id', {
      params: txidParams,
      response: walletHistoryItemResponse,
    }),
    async (request) => {
      const { txid } = txidParams.parse(request.params);
      const item = await depositByTxid(
        deps.db,
        uid(request),
        txid,
        wallet.confirmations,
        wallet.latestHeight,
      );
      if (!item) throw notFound();
      return item;
    },
  );

  app.get(
    '/account/transactions',
    docs('Deposits and withdrawals together, paged', {
      query: transactionsQuery,
      response: z.array(transactionItemResponse),
      paged: true,
    }),
    async (request, reply) => {
      const q = transactionsQuery.parse(request.query);
      checkRange(q, deps.clock);
      const page = await listTransactions(
        deps.db,
        uid(request),
        q,
        wallet.confirmations,
        wallet.latestHeight,
      );
      paged(reply, page.total, q.page, q.limit);
      return page.items;
    },
  );

  app.get(
    '/account/withdraw_permission',
    docs('Whether the user may withdraw now', { response: withdrawPermissionResponse }),
    async (request) => withdrawPermission(wallet.withdrawDeps(), authUser(request)),
  );

  app.post(
    '/account/withdraws',
    docs(
      'Withdraw to an active beneficiary',
      { body: withdrawSchema, response: walletHistoryItemResponse, status: 201 },
      strict,
    ),
    async (request, reply) => {
      const input = withdrawSchema.parse(request.body ?? {});
      const id = await createWithdrawal(wallet.withdrawDeps(), authUser(request), input, {
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
      });
      const item = await historyItem(deps.db, 'withdrawals', id, wallet.confirmations, wallet.latestHeight);
      return reply.status(201).send(item);
    },
  );

  // A transfer names its recipient by email or phone: few per account, so that lookups cannot be run in bulk.
  const transfers = {
    config: {
      rateLimit: {
        max: 20,
        timeWindow: '1 hour',
        keyGenerator: (r: FastifyRequest) => `transfer:${r.auth?.user.id ?? r.ip}`,
      },
    },
  };
  app.post(
    '/account/internal_transfers',
    docs(
      'Transfer to another user by email, phone number or address, with the account password',
      { body: internalTransferSchema, response: walletHistoryItemResponse, status: 201 },
      transfers,
    ),
    async (request, reply) => {
      const input = internalTransferSchema.parse(request.body ?? {});
      const id = await createTransfer(wallet.withdrawDeps(), authUser(request), input);
      const item = await historyItem(deps.db, 'withdrawals', id, wallet.confirmations, wallet.latestHeight);
      return reply.status(201).send(item);
    },
  );

  const fiatDeps = {
    db: deps.db,
    core: deps.core,
    keys: deps.keys,
    bank: wallet.bank,
    holdHours: deps.config.withdrawHoldHours,
    clock: deps.clock,
  };
  app.get(
    '/account/fiat/transactions',
    docs('Bank payouts, paged', {
      query: walletHistoryQuery,
      response: z.array(fiatWithdrawalResponse),
      paged: true,
    }),
    async (request, reply) => {
      const q = walletHistoryQuery.parse(request.query);
      const page = await listFiat(deps.db, uid(request), q.page, q.limit);
      paged(reply, page.total, q.page, q.limit);
      return page.items;
    },
  );
  app.post(
    '/account/fiats/withdraws',
    docs(
      'Pay out to a bank account',
      { body: fiatWithdrawSchema, response: fiatWithdrawResponse, status: 201 },
      strict,
    ),
    async (request, reply) => {
      const input = fiatWithdrawSchema.parse(request.body ?? {});
      const { returnType, id } = await createFiatWithdrawal(fiatDeps, authUser(request), input);
      return reply.status(201).send({ returnType, transaction: await findFiat(deps.db, uid(request), id) });
    },
  );
  app.post(
    '/account/fiats/withdraw/callback',
    docs('Bank payout outcome', { body: fiatCallbackSchema, response: fiatCallbackResponse }, strict),
    async (request) => {
      const { id } = fiatCallbackSchema.parse(request.body ?? {});
      return fiatCallback(fiatDeps, uid(request), id);
    },
  );

  beneficiaryRoutes(app, deps, beneficiaryDeps, strict);
  for (const section of sections) section(app, strict);

  const swapDeps = { db: deps.db, core: deps.core, keys: deps.keys };
  app.get(
    '/account/amount_quote',
    docs('Swap quote', { query: amountQuoteQuery, response: amountQuoteResponse }),
    async (request) => quoteSwap(swapDeps, uid(request), amountQuoteQuery.parse(request.query)),
  );
  app.post(
    '/account/swaps',
    docs('Swap', { body: createSwapSchema, response: swapResponse, status: 201 }, strict),
    async (request, reply) => {
      const input = createSwapSchema.parse(request.body ?? {});
      return reply.status(201).send(await executeSwap(swapDeps, uid(request), input));
    },
  );
  app.get(
    '/account/swaps',
    docs('Swaps, paged', { query: walletHistoryQuery, response: z.array(swapResponse), paged: true }),
    async (request, reply) => {
      const q = walletHistoryQuery.parse(request.query);
      checkRange(q, deps.clock);
      const page = await listSwaps(deps.db, uid(request), q);
      paged(reply, page.total, q.page, q.limit);
      return page.items;
    },
  );
}
