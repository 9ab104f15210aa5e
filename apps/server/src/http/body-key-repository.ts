import type pg from 'pg';

/** The body-encryption key pair in `app_secrets` (one row, `body_rsa_key`), shared by every api process. */

/** The stored key pair (JSON: the public key's PEM, the private key sealed with the server key), if any. */
export async function readBodyKey(db: pg.Pool): Promise<string | undefined> {
  const row = (await db.query<{ value: string }>(`select value from app_secrets where name = 'body_rsa_key'`))
    .rows[0];
  return row?.value;
}

/** Stores a key pair unless another process stored one first (then that one is the key: read it back). */
export async function insertBodyKey(db: pg.Pool, value: string): Promise<void> {
  await db.query(
    `insert into app_secrets (name, value) values ('body_rsa_key', $1) on conflict (name) do nothing`,
    [value],
  );
}
