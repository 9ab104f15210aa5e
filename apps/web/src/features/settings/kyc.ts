import type { User } from '../../api/user.ts';

/** How the basic-kyc-level label is shown (docs/kyc.md#labels mapping table). */
export type KycStatus = 'verified' | 'underReview' | 'rejected' | 'initiated' | 'resubmit' | 'pending';

const BY_VALUE: Record<string, KycStatus> = {
  verified: 'verified',
  in_review: 'underReview',
  onhold: 'underReview',
  rejected: 'rejected',
  initiated: 'initiated',
  retry: 'resubmit',
};

/** The user's KYC status from the `basic-kyc-level` label; anything else (or none) is Pending. */
export function kycStatus(user: User | null | undefined): KycStatus {
  const value = user?.labels?.find((l) => l.key === 'basic-kyc-level')?.value ?? '';
  return BY_VALUE[value] ?? 'pending';
}

/** Badge colour of a status. */
export const KYC_COLOR: Record<KycStatus, string> = {
  verified: 'teal',
  underReview: 'yellow',
  rejected: 'red',
  initiated: 'blue',
  resubmit: 'orange',
  pending: 'gray',
};

/** `DD/MM/YYYY HH:mm:ss` in the user's time zone (docs/accounts.md#constants). */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getDate())}/${p(d.getMonth() + 1)}/${d.getFullYear()} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}
