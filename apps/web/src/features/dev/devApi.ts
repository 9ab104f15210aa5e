import { STORAGE_KEYS } from '@exchange/shared';
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

const APPROVED = new Set(['approved', 'success', 'settled', 'authorized', 'pending']);

/**
 * Reads the dev spend answer. Its body beyond the route is not fixed by the contract, so this accepts
 * `{approved}`, `{status|result|outcome: 'approved'|'declined'}`, a reason (`reason`, `decline_reason`, `message`)
 * and a trade id (`tradeId`, `trade_id`); a 4xx with `errors` is a decline whose reason is the code's message.
 */
export function readOutcome(status: number, text: string): TerminalOutcome {
  let body: Record<string, unknown> = {};
  try {
    body = (JSON.parse(text) as Record<string, unknown>) ?? {};
  } catch {
    // No JSON: decided by the status alone.
  }
  const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined);
  const tradeId = str(body.tradeId) ?? str(body.trade_id);
  if (status >= 400) {
    const code = failureCode(text);
    return { approved: false, reason: str(body.reason) ?? messageFor(code ?? 'server.error'), tradeId };
  }
  const word = (str(body.status) ?? str(body.result) ?? str(body.outcome) ?? '').toLowerCase();
  const approved = typeof body.approved === 'boolean' ? body.approved : word ? APPROVED.has(word) : true;
  const reason = str(body.reason) ?? str(body.decline_reason) ?? str(body.message);
  return { approved, reason: approved ? undefined : reason, tradeId };
}
