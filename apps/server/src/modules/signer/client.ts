import type { KeyScheme } from '../../adapters/chains/port.ts';
import { type SignerPort, SignerRefusedError } from '../../adapters/chains/signing.ts';
import { signedHeaders } from './auth.ts';

/**
 * The signer port over HTTP: each request is signed with the shared token, and names the network's key scheme
 * (the signer derives the keys again and compares them with the addresses). A 403 is the policy's refusal.
 */
export function createSignerClient(options: {
  url: string;
  token: string;
  schemeOf(network: string): KeyScheme;
  timeoutMs?: number;
}): SignerPort {
  const call = async <T>(urlPath: string, network: string, payload: object): Promise<T> => {
    const { purpose, coinType, nativeCurrency } = options.schemeOf(network);
    const body = JSON.stringify({ ...payload, network, scheme: { purpose, coinType }, nativeCurrency });
    const response = await fetch(new URL(urlPath, options.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signedHeaders(options.token, 'POST', urlPath, body) },
      body,
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
    const answer = (await response.json().catch(() => ({}))) as { errors?: string[] } & T;
    if (response.status === 403 || response.status === 401)
      throw new SignerRefusedError(answer.errors?.[0] ?? 'signer.refused');
    if (!response.ok)
      throw new Error(`signer answered ${response.status}: ${answer.errors?.join(', ') ?? ''}`);
    return answer;
  };
  return {
    signBitcoin: ({ network, ...rest }) => call('/v1/bitcoin/sign', network, rest),
    signTron: ({ network, ...rest }) => call('/v1/tron/sign', network, rest),
    signEvm: ({ network, ...rest }) => call('/v1/evm/sign', network, rest),
  };
}
