import type pg from 'pg';
import { findUserByEmail } from '../identity/users-repository.ts';
import { userSummary } from './customers.ts';
import { cliUserView } from './customers-repository.ts';

/** A user with labels, phones, profile and balances (decimal strings), or null when the email is unknown. */
export async function findUserDetail(db: pg.Pool, email: string) {
  const user = await findUserByEmail(db, email);
  if (!user) return null;
  const { labels, phones, profiles, balances } = await cliUserView(db, user.id);
  return {
    ...userSummary(user),
    created_at: user.created_at,
    labels,
    phones,
    profiles,
    balances,
  };
}
