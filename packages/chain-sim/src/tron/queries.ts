import { parseAddress } from './codec.ts';
import type { TronNode } from './node.ts';
import { CHAIN_PARAMETERS, FREE_NET_WINDOW_MS } from './params.ts';
import { blockJson, transactionJson, visibleForm } from './present.ts';
import { type Handler, nodeError, ok } from './reply.ts';
import type { BlockRow } from './store.ts';

const parseError = (message: string) =>
  nodeError('org.tron.core.services.http.JsonFormat$ParseException', message);

/** The read-only `/wallet/*` endpoints: blocks, transactions, accounts, chain parameters. */
export function queries(node: TronNode): Record<string, Handler> {
  const { store, pool } = node;
  const block = async (row: BlockRow | null, visible: boolean) =>
    ok(row ? visibleForm(blockJson(row, await store.blockTransactions(pool, row.number)), visible) : {});
  const txid = (value: unknown) =>
    typeof value === 'string' && /^[0-9a-fA-F]{64}$/.test(value) ? value.toLowerCase() : null;
  const number = (value: unknown) => {
    const n = typeof value === 'string' ? Number(value) : value;
    return typeof n === 'number' && Number.isSafeInteger(n) ? n : null;
  };
  const account = (p: Record<string, unknown>, visible: boolean) => {
    const address = p.address;
    if (typeof address !== 'string') return null;
    return visible
      ? visibleAddress(address)
      : /^41[0-9a-fA-F]{40}$/.test(address)
        ? address.toLowerCase()
        : undefined;
  };

  return {
    '/wallet/getnowblock': async (_p, visible) => block(await node.head(), visible),
    '/wallet/getblockbynum': async (p, visible) => {
      const num = p.num === undefined ? 0 : number(p.num);
      if (num === null)
        return nodeError('java.lang.NumberFormatException', `For input string: "${String(p.num)}"`);
      await node.head();
      return block(await store.block(pool, num), visible);
    },
    '/wallet/getblockbyid': async (p, visible) => {
      const id = txid(p.value);
      return block(id ? await store.blockById(pool, id) : null, visible);
    },
    '/wallet/getaccount': async (p, visible) => {
      const address = account(p, visible);
      if (address === undefined) return parseError('INVALID hex String');
      if (address === null) return ok({});
      const head = await node.head();
      const state = store.state(pool, head.timestamp);
      if (!(await state.exists(address))) return ok({});
      const out: Record<string, unknown> = { address };
      const balance = await state.trx(address);
      if (balance > 0n) out.balance = balance;
      out.create_time = (await store.createTime(pool, address)) ?? head.timestamp;
      const used = await state.freeNetUsed(address);
      if (used > 0) out.free_net_usage = used;
      out.net_window_size = FREE_NET_WINDOW_MS;
      return ok(visibleForm(out, visible));
    },
    '/wallet/getaccountnet': async (p, visible) => {
      const address = account(p, visible);
      if (address === undefined) return parseError('INVALID hex String');
      if (address === null) return ok({});
      const head = await node.head();
      const state = store.state(pool, head.timestamp);
      if (!(await state.exists(address))) return ok({});
      const used = await state.freeNetUsed(address);
      const out: Record<string, unknown> = {};
      if (used > 0) out.freeNetUsed = used;
      out.freeNetLimit = CHAIN_PARAMETERS.getFreeNetLimit;
      out.TotalNetLimit = CHAIN_PARAMETERS.getTotalNetLimit;
      out.TotalNetWeight = 0;
      return ok(out);
    },
    '/wallet/gettransactionbyid': async (p, visible) => {
      const id = txid(p.value);
      const tx = id ? await store.transaction(pool, id) : null;
      return ok(tx && tx.blockNumber !== null ? visibleForm(transactionJson(tx), visible) : {});
    },
    '/wallet/gettransactionfrompending': async (p, visible) => {
      const id = txid(p.value);
      const tx = id ? await store.transaction(pool, id) : null;
      return ok(tx && tx.blockNumber === null ? visibleForm(transactionJson(tx), visible) : {});
    },
    '/wallet/gettransactioninfobyid': async (p, visible) => {
      const id = txid(p.value);
      const tx = id ? await store.transaction(pool, id) : null;
      return ok(tx?.info ? visibleForm(tx.info, visible) : {});
    },
    '/wallet/gettransactioninfobyblocknum': async (p, visible) => {
      const num = number(p.num);
      if (num === null)
        return nodeError('java.lang.NumberFormatException', `For input string: "${String(p.num)}"`);
      if (num <= 0) return ok({});
      return ok(visibleForm(await store.blockInfos(pool, num), visible));
    },
    '/wallet/getchainparameters': async () =>
      ok({
        chainParameter: Object.entries(CHAIN_PARAMETERS).map(([key, value]) => ({ key, value })),
      }),
  };
}

/** Hex form of a Base58Check address given with `visible: true`, or undefined if it is not one. */
function visibleAddress(text: string): string | undefined {
  return parseAddress(text, true) ?? undefined;
}
