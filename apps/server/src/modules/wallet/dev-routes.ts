import { DEV_ERRORS, faucetResponse, mineResponse, parseUnits } from '@exchange/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { invalid } from '../../http/errors.ts';
import { loopbackOnly } from '../../http/loopback.ts';
import { docs } from '../../http/openapi.ts';
import type { WalletRouteDeps } from './deps.ts';

const faucetSchema = z.object({
  blockchain_key: z.string().max(64),
  currency: z.string().max(10),
  address: z.string().min(1).max(200),
  amount: z.string().max(40),
});
const mineSchema = z.object({
  blockchain_key: z.string().max(64),
  blocks: z.coerce.number().int().min(1).max(1000).default(1),
});

/**
 * Developer tools for trying deposits (only with DEV_TOOLS, and only from this machine): send coins from nowhere to any address on a
 * simulated chain, and mine blocks. The command line's `faucet` and `mine` call these.
 */
export async function walletDevRoutes(app: FastifyInstance, deps: WalletRouteDeps): Promise<void> {
  const network = (key: string) => {
    const n = deps.wallet.chains.get(key);
    if (!n?.dev) throw invalid(DEV_ERRORS.unsupportedNetwork);
    return { ...n, dev: n.dev };
  };

  app.post(
    '/faucet',
    docs(
      'Dev: test coins to an address',
      { body: faucetSchema, response: faucetResponse, status: 201, errors: [403] },
      { onRequest: loopbackOnly },
    ),
    async (request, reply) => {
      const input = faucetSchema.parse(request.body ?? {});
      const n = network(input.blockchain_key);
      const precision = n.currencies.get(input.currency);
      if (precision === undefined) throw invalid(DEV_ERRORS.unsupportedCurrency);
      const address = n.chain.normalizeAddress(input.address);
      if (!address) throw invalid(DEV_ERRORS.invalidAddress);
      const amount = parseUnits(input.amount, precision);
      if (!amount.ok || amount.units <= 0n) throw invalid(DEV_ERRORS.invalidAmount);
      const txid = await n.dev.faucet(address, input.currency, amount.units);
      return reply.status(201).send({ txid, blockchain_key: n.key, address, amount: input.amount });
    },
  );

  app.post(
    '/mine',
    docs(
      'Dev: mine blocks',
      { body: mineSchema, response: mineResponse, errors: [403] },
      { onRequest: loopbackOnly },
    ),
    async (request) => {
      const input = mineSchema.parse(request.body ?? {});
      const height = await network(input.blockchain_key).dev.mine(input.blocks);
      await deps.wallet.tick();
      return { blockchain_key: input.blockchain_key, height };
    },
  );
}
