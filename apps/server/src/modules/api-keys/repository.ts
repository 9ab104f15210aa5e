import type pg from 'pg';
import type { Keyset } from '../../db/keyset.ts';

/** An API key row (the secret stays encrypted). */
export interface ApiKeyRecord {
  id: string;
  user_id: string;
  kid: string;
  algorithm: string;
  secret_enc: string;
  state: 'active' | 'inactive';
  /** Canonical whitelist entries (migration 0039); empty: any address. */
  allowed_ips: string[];
  created_at: Date;
  updated_at: Date;
}

/** The public view of a key: never the secret. */
export function publicKey(k: ApiKeyRecord) {
  return {
    kid: k.kid,
    algorithm: k.algorithm,
    state: k.state,
    allowed_ips: k.allowed_ips,
    created_at: k.created_at,
    updated_at: k.updated_at,
  };
}

/** The columns a key list may be ordered by (Barong's attribute names; `algorithm` is HS256 for every key). */
const KEY_ORDER = {
  id: 'id',
  kid: 'kid',
  algorithm: 'id',
  state: 'state',
  created_at: 'created_at',
  updated_at: 'updated_at',
};

/** One page of the user's keys in Barong's order (`order_by`, `ordering`; ties by id), and how many there are. */
export async function listKeys(
  db: pg.Pool,
  userId: string,
  page: { limit: number; offset: number; orderBy: keyof typeof KEY_ORDER; ordering: 'asc' | 'desc' },
) {
  const direction = page.ordering === 'desc' ? 'desc' : 'asc';
  const [rows, total] = await Promise.all([
    db.query<ApiKeyRecord>(
      `select * from api_keys where user_id = $1 order by ${KEY_ORDER[page.orderBy]} ${direction}, id ${direction}
       limit $2 offset $3`,
      [userId, page.limit, page.offset],
    ),
    db.query<{ n: number }>('select count(*)::int as n from api_keys where user_id = $1', [userId]),
  ]);
  return { items: rows.rows.map(publicKey), total: total.rows[0]!.n };
}

/**
 * A {@link Keyset} page of all the user's keys, oldest first, each in its public view (never the secret) with the
 * row id the next page starts after (the data export; the id itself is not shown).
 */
export async function keysAfter(db: pg.Pool, userId: string, page: Keyset) {
  const rows = await db.query<ApiKeyRecord>(
    'select * from api_keys where user_id = $1 and id > $2 and id <= $3 order by id limit $4',
    [userId, page.after, page.upTo, page.limit],
  );
  return rows.rows.map((k) => ({ id: Number(k.id), key: publicKey(k) }));
}

export async function insertKey(
  db: pg.Pool,
  userId: string,
  kid: string,
  secretEnc: string,
  allowedIps: string[] = [],
): Promise<ApiKeyRecord> {
  return (
    await db.query<ApiKeyRecord>(
      'insert into api_keys (user_id, kid, secret_enc, allowed_ips) values ($1, $2, $3, $4) returning *',
      [userId, kid, secretEnc, allowedIps],
    )
  ).rows[0]!;
}

/** A key by kid, only if it belongs to `userId` (authorisation on every object). */
export async function findOwnKey(
  db: pg.Pool,
  userId: string,
  kid: string,
): Promise<ApiKeyRecord | undefined> {
  return (
    await db.query<ApiKeyRecord>('select * from api_keys where kid = $1 and user_id = $2', [kid, userId])
  ).rows[0];
}

export async function findKey(db: pg.Pool, kid: string): Promise<ApiKeyRecord | undefined> {
  return (await db.query<ApiKeyRecord>('select * from api_keys where kid = $1', [kid])).rows[0];
}

/**
 * Changes a key's state and/or allowed IPs (a field left undefined stays). The update announces `k:<kid>` on the
 * change feed (migration 0030), so every api process forgets its cached copy.
 */
export async function updateKey(
  db: pg.Pool,
  id: string,
  change: { state?: 'active' | 'inactive'; allowedIps?: string[] },
): Promise<ApiKeyRecord> {
  return (
    await db.query<ApiKeyRecord>(
      `update api_keys set state = coalesce($2, state), allowed_ips = coalesce($3, allowed_ips), updated_at = now()
        where id = $1 returning *`,
      [id, change.state ?? null, change.allowedIps ?? null],
    )
  ).rows[0]!;
}

export async function deleteKey(db: pg.Pool, id: string): Promise<void> {
  await db.query('delete from api_keys where id = $1', [id]);
}
