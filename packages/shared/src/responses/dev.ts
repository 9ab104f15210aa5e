import { z } from 'zod';
import { decimal } from './common.ts';

/** The developer tools' answers (DEV_TOOLS only, loopback only). */

/** `POST /dev/faucet`: the transaction that paid the address. */
export const faucetResponse = z.object({
  txid: z.string(),
  blockchain_key: z.string(),
  address: z.string(),
  amount: decimal,
});

/** `POST /dev/mine`: the chain's new height. */
export const mineResponse = z.object({ blockchain_key: z.string(), height: z.number().int() });

/** `POST /dev/card/spend` and `/dev/card/refund`: what the simulated card network did. */
export const cardNetworkOutcomeResponse = z.object({
  trade_id: z.string(),
  status: z.enum(['settled', 'declined', 'reversed']),
  reason: z.string().optional(),
  usdt: decimal.optional(),
});
