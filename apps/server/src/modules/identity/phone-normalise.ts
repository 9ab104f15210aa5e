import { mobileFromInternational } from '@exchange/shared';

/** A stored phone row, as the normalisation reads it. */
export interface StoredPhone {
  id: string;
  user_id: string;
  number: string;
  validated_at: Date | null;
}

/** What normalising the stored phones changes: numbers rewritten, rows removed, verifications withdrawn. */
export interface PhonePlan {
  /** Row id → its E.164 digits, for rows whose number changes. */
  renumber: Map<string, string>;
  /** Rows of one account that became the same number as a row of that account kept. */
  remove: string[];
  /** Verified rows whose number another account verified more recently: they keep the number, unverified. */
  unverify: StoredPhone[];
}

/** Verified first, then the most recent verification, then the newest row. */
function better(a: StoredPhone, b: StoredPhone): boolean {
  if (Boolean(a.validated_at) !== Boolean(b.validated_at)) return Boolean(a.validated_at);
  const at = (a.validated_at?.getTime() ?? 0) - (b.validated_at?.getTime() ?? 0);
  if (at !== 0) return at > 0;
  return BigInt(a.id) > BigInt(b.id);
}

/**
 * Plans the normalisation of stored phone numbers to E.164 digits (issue 32). A number that is no valid mobile
 * number (an old landline) keeps its digits. Where rows come to name the same number:
 *
 * - rows of one account: one is kept (the verified one, else the newest), the others are removed;
 * - verified rows of several accounts: the number stays verified on the account that verified it last (its owner
 *   most recently shown to hold it: numbers are given out again), and the others keep it unverified, so one
 *   number logs in to one account and codes go to one account (a unique index holds it from then on). Their
 *   owners keep their level; support sees the change in their security log.
 */
export function planPhoneNormalisation(rows: readonly StoredPhone[]): PhonePlan {
  const plan: PhonePlan = { renumber: new Map(), remove: [], unverify: [] };
  const target = new Map(rows.map((r) => [r.id, mobileFromInternational(r.number) ?? r.number]));
  for (const row of rows)
    if (target.get(row.id) !== row.number) plan.renumber.set(row.id, target.get(row.id) ?? '');

  // One row per account and number.
  const kept = new Map<string, StoredPhone>();
  for (const row of rows) {
    const key = `${row.user_id}\u0000${target.get(row.id)}`;
    const other = kept.get(key);
    if (!other) kept.set(key, row);
    else if (better(row, other)) {
      plan.remove.push(other.id);
      kept.set(key, row);
    } else plan.remove.push(row.id);
  }
  for (const id of plan.remove) plan.renumber.delete(id);

  // One verified account per number.
  const owner = new Map<string, StoredPhone>();
  for (const row of kept.values()) {
    if (!row.validated_at) continue;
    const number = target.get(row.id) ?? row.number;
    const other = owner.get(number);
    if (!other) owner.set(number, row);
    else if (better(row, other)) {
      plan.unverify.push(other);
      owner.set(number, row);
    } else plan.unverify.push(row);
  }
  return plan;
}
