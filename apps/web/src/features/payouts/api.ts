import type { PayoutFile, PayoutFileDetail, PayoutRejection } from '@exchange/shared';
import { ApiError, api } from '../../api/client.ts';

/** The query key of the payout files (the list and each file under it). */
export const PAYOUTS_QUERY = 'payouts';

export const listPayouts = () => api<PayoutFile[]>('peatio', '/account/payouts');
export const getPayout = (id: number) => api<PayoutFileDetail>('peatio', `/account/payouts/${id}`);

/** Uploads a CSV file (multipart field `file`); a refusal throws {@link ApiError} with `rows` and `shortfall`. */
export function uploadPayout(file: File): Promise<PayoutFileDetail> {
  const body = new FormData();
  body.append('file', file, file.name);
  return api<PayoutFileDetail>('peatio', '/account/payouts', { method: 'POST', body });
}

export const executePayout = (id: number, otp: string) =>
  api<PayoutFile>('peatio', `/account/payouts/${id}/execute`, { method: 'POST', body: { otp } });

export const discardPayout = (id: number) =>
  api<void>('peatio', `/account/payouts/${id}`, { method: 'DELETE' });

/** What a refused upload says row by row (empty lists for other failures). */
export function rejectionOf(err: unknown): Pick<PayoutRejection, 'rows' | 'shortfall'> {
  const details = err instanceof ApiError ? err.details : {};
  return {
    rows: Array.isArray(details.rows) ? (details.rows as PayoutRejection['rows']) : [],
    shortfall: Array.isArray(details.shortfall) ? (details.shortfall as PayoutRejection['shortfall']) : [],
  };
}

/** The file a duplicate upload names (409 `account.payout.duplicate_file`), if any. */
export function duplicateOf(err: unknown): number | null {
  const id = err instanceof ApiError ? err.details.file_id : undefined;
  return typeof id === 'number' ? id : null;
}

/** True when the refusal says the account is no verified business. */
export const notBusiness = (err: unknown) =>
  err instanceof ApiError && err.errors.includes('account.payout.business_required');
