import type pg from 'pg';

/** Inserts a bare active user (no identity flow) and returns its numeric id, for core tests. */
export async function plainUser(db: pg.Pool, email: string): Promise<number> {
  const row = await db.query(
    `insert into users (uid, email, password_digest, level, state) values ($1, $2, 'x', 2, 'active') returning id`,
    [`ID${Math.random().toString(16).slice(2, 12).toUpperCase()}`, email],
  );
  return Number(row.rows[0].id);
}

/** A signed-in browser session for a user, without going through the login flow. */
export async function sessionFor(
  sessions: {
    create(userId: string, ip: string, ua: string | null): Promise<{ token: string; csrfToken: string }>;
  },
  userId: number,
): Promise<{ cookie: string; 'x-csrf-token': string }> {
  const { token, csrfToken } = await sessions.create(String(userId), '127.0.0.1', 'test');
  return { cookie: `session=${token}`, 'x-csrf-token': csrfToken };
}
