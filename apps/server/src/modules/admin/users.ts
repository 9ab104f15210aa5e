import type pg from 'pg';

/** A user with labels, phones, profile and balances (decimal strings), or null when the email is unknown. */
export async function findUserDetail(db: pg.Pool, email: string) {
  const user = (await db.query('select * from users where lower(email) = lower($1)', [email])).rows[0];
  if (!user) return null;
  const [labels, phones, profiles, balances] = await Promise.all([
    db.query('select key, value, scope from labels where user_id = $1 order by key', [user.id]),
    db.query('select country, number, validated_at from phones where user_id = $1', [user.id]),
    db.query('select first_name, last_name, country from profiles where user_id = $1', [user.id]),
    db.query(
      `select currency_id as currency, trim_scale(balance)::text as balance, trim_scale(locked)::text as locked
       from balances where user_id = $1 order by currency_id`,
      [user.id],
    ),
  ]);
  return {
    uid: user.uid as string,
    email: user.email as string,
    role: user.role as string,
    level: user.level as number,
    state: user.state as string,
    otp: user.otp as boolean,
    created_at: user.created_at as Date,
    labels: labels.rows,
    phones: phones.rows,
    profiles: profiles.rows,
    balances: balances.rows,
  };
}
