import { createHmac } from 'node:crypto';
import { toUnits } from '@exchange/shared';
import type pg from 'pg';
import { SIM_RATE_DECIMALS } from './money.ts';
import { networkCharge, networkReturn } from './network.ts';
import { loadCardSimulatorCredentials } from './store.ts';

const EUR_AMOUNT = /^(0|[1-9]\d{0,8})(\.\d{1,2})?$/;

/**
 * `npm run cli -- card spend|atm|fee <card_number> <eur> [merchant|reason]` and `card refund|reverse <trade_id> [eur]`: the
 * simulator's card network, converting at `eurPerUsdt`; the outcome's webhooks are queued for the running app.
 */
export async function cardNetwork(
  db: pg.Pool,
  command: string,
  args: string[],
  eurPerUsdt: string,
  /** The network's time: the machine's for the operator's command; a test names the day its limits count in. */
  now = new Date(),
): Promise<{ ok: boolean; message: string }> {
  const eur = (text: string | undefined) => (text && EUR_AMOUNT.test(text) ? toUnits(text, 2) : undefined);
  if (command === 'spend' || command === 'atm' || command === 'fee') {
    const [pan, amount, ...merchant] = args;
    const cents = eur(amount);
    if (!pan || !/^\d{16}$/.test(pan.replace(/[\s-]/g, '')) || cents === undefined || cents <= 0n)
      return {
        ok: false,
        message: `usage: card ${command} <card_number> <eur>${command === 'atm' ? '' : command === 'fee' ? ' [reason]' : ' [merchant]'}`,
      };
    const credentials = await loadCardSimulatorCredentials(db);
    const hash = createHmac('sha256', Buffer.from(credentials.dataKey, 'base64url'))
      .update(pan.replace(/[\s-]/g, ''))
      .digest('hex');
    const card = (await db.query('select token from cardsim_cards where pan_hash = $1', [hash])).rows[0];
    if (!card) return { ok: false, message: 'no such card at the simulator' };
    const outcome = await networkCharge(
      db,
      {
        cardToken: card.token,
        kind: command === 'atm' ? 'atm' : command === 'fee' ? 'fee' : 'purchase',
        eurCents: cents,
        merchant:
          command === 'atm'
            ? 'ATM withdrawal'
            : merchant.join(' ').slice(0, 200) || (command === 'fee' ? 'Card fee' : 'Simulated merchant'),
        rate: toUnits(eurPerUsdt, SIM_RATE_DECIMALS),
      },
      now,
    );
    return { ok: outcome.status !== 'declined', message: JSON.stringify(outcome) };
  }
  if (command === 'refund' || command === 'reverse') {
    const [tradeId, amount] = args;
    const cents = amount === undefined ? undefined : eur(amount);
    if (!tradeId || (amount !== undefined && cents === undefined))
      return {
        ok: false,
        message: `usage: card ${command} <trade_id> [eur]`,
      };
    const outcome = await networkReturn(db, {
      tradeId,
      kind: command === 'reverse' ? 'reversal' : 'refund',
      eurCents: cents,
    });
    if (outcome === 'unknown_trade') return { ok: false, message: `no purchase ${tradeId} to ${command}` };
    if (outcome === 'too_much') return { ok: false, message: 'more than what is left of the purchase' };
    return { ok: true, message: JSON.stringify(outcome) };
  }
  return { ok: false, message: `unknown card command: ${command}` };
}
