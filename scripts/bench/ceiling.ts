import Fastify from 'fastify';
import { type LoadResult, load } from './load.ts';

/**
 * The machine's ceiling for one HTTP process, measured in the same run as the rows beside it: a bare Fastify
 * server in this process answering `{"ok":true}`, loaded like the rows it is set against. A row's share of it is
 * comparable between machines; a falling share is a regression of ours, not a slower machine.
 */
export async function measureCeiling(connections: number, duration: number): Promise<LoadResult> {
  const bare = Fastify({ logger: false });
  bare.get('/', async () => ({ ok: true }));
  const base = await bare.listen({ port: 0, host: '127.0.0.1' });
  try {
    return await load({ url: `${base}/`, method: 'GET', connections, duration });
  } finally {
    await bare.close();
  }
}

/** `rate` as a share of the ceiling, e.g. `54 %`. */
export const shareOf = (rate: number, ceiling: LoadResult) =>
  `${Math.round((100 * rate) / ceiling.requestsPerSecond)} %`;
