import { STORAGE_KEYS } from '@exchange/shared';
import { toast } from '../../app/toast.ts';
import { messageFor } from '../../i18n/index.ts';

/** POSTs to the dev API (`/api/v2/dev/*`), which sits outside the Barong and Peatio prefixes. */
export async function devPost(path: string, body: unknown): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
  const csrf = localStorage.getItem(STORAGE_KEYS.csrfToken);
  if (csrf) headers['X-CSRF-Token'] = csrf;
  const response = await fetch(`/api/v2/dev/${path}`, {
    method: 'POST',
    credentials: 'include',
    headers,
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

/** A dev route's answer; `off` when the route is not there at all (dev tools off: a 404 without a code). */
export interface DevAnswer {
  status: number;
  text: string;
  off: boolean;
}

/** POSTs to a dev route; a network failure is toasted and answers undefined. */
export async function devRequest(path: string, body: unknown): Promise<DevAnswer | undefined> {
  try {
    const { status, text } = await devPost(path, body);
    return { status, text, off: status === 404 && !failureCode(text) };
  } catch {
    toast.error(messageFor('server.error'));
    return undefined;
  }
}

/** The first error code of a refusal (`{"errors":["dev.faucet.invalid_address"]}`), if any. */
export function failureCode(text: string): string | undefined {
  try {
    return (JSON.parse(text) as { errors?: string[] }).errors?.[0];
  } catch {
    return undefined;
  }
}

/** The message of a refusal; not JSON or no code: the generic message. */
export function failure(text: string): string {
  return messageFor(failureCode(text) ?? 'server.error');
}

/** What the terminal shows after Pay. */
export interface TerminalOutcome {
  approved: boolean;
  reason?: string;
  tradeId?: string;
}

/**
 * Reads the dev spend answer: `{trade_id, status: 'settled' | 'declined', reason?}` from the simulated card
 * network; a 4xx with `errors` (no such card of yours, bad amount) is shown as a decline with the code's message.
 */
export function readOutcome(status: number, text: string): TerminalOutcome {
  let body: { trade_id?: unknown; status?: unknown; reason?: unknown } = {};
  try {
    body = JSON.parse(text) ?? {};
  } catch {
    // No JSON: decided by the status alone.
  }
  const tradeId = typeof body.trade_id === 'string' ? body.trade_id : undefined;
  if (status >= 400) return { approved: false, reason: failure(text), tradeId };
  const approved = body.status === 'settled';
  const reason = typeof body.reason === 'string' ? body.reason : undefined;
  return { approved, reason: approved ? undefined : reason, tradeId };
}
