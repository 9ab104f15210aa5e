import type pg from 'pg';
import type { Tx } from '../../db/pool.ts';

type Db = pg.Pool | Tx;

/** What a user saves of the profile (`POST`/`PUT /resource/profiles`), trimmed; names only when given. */
export interface SubmittedProfile {
  gender: string | null;
  dob: string;
  address: string;
  postcode: string;
  city: string;
  country: string;
  firstName: string | null;
  lastName: string | null;
}

/** The latest profile as the profile screen shows it (`dob` as `YYYY-MM-DD`). */
export type ProfileRow = {
  first_name: string | null;
  last_name: string | null;
  gender: string | null;
  dob: string | null;
  address: string | null;
  postcode: string | null;
  city: string | null;
  country: string | null;
  state: string;
};

/** The values of the user's `basic-kyc-level` labels (docs/kyc.md#labels). */
export async function kycLevelLabels(db: Db, userId: string): Promise<{ value: string }[]> {
  return (
    await db.query<{ value: string }>(
      `select value from labels where user_id = $1 and key = 'basic-kyc-level'`,
      [userId],
    )
  ).rows;
}

/** The statement's values of a submitted profile: `$1` the user, `$2`…`$9` the fields. */
const submittedValues = (userId: string, p: SubmittedProfile) => [
  userId,
  p.gender,
  p.dob,
  p.address,
  p.postcode,
  p.city,
  p.country,
  p.firstName,
  p.lastName,
];

/**
 * Writes a submitted profile over the user's latest one (names kept when not given); false when the user has no
 * profile yet.
 */
export async function submitLatestProfile(
  db: Db,
  userId: string,
  profile: SubmittedProfile,
): Promise<boolean> {
  const updated = await db.query<{ id: string }>(
    `update profiles set gender = $2, dob = $3, address = $4, postcode = $5, city = $6, country = $7,
       first_name = coalesce($8, first_name), last_name = coalesce($9, last_name), state = 'submitted', updated_at = now()
     where id = (select max(id) from profiles where user_id = $1) returning id`,
    submittedValues(userId, profile),
  );
  return Boolean(updated.rowCount);
}

/** Stores a submitted profile as the user's first. */
export async function insertSubmittedProfile(
  db: Db,
  userId: string,
  profile: SubmittedProfile,
): Promise<void> {
  await db.query(
    `insert into profiles (user_id, gender, dob, address, postcode, city, country, first_name, last_name, state)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'submitted')`,
    submittedValues(userId, profile),
  );
}

/** The user's latest profile, or undefined when there is none. */
export async function latestProfile(db: Db, userId: string): Promise<ProfileRow | undefined> {
  return (
    await db.query<ProfileRow>(
      `select first_name, last_name, gender, to_char(dob, 'YYYY-MM-DD') as dob, address, postcode, city, country, state
     from profiles where user_id = $1 order by id desc limit 1`,
      [userId],
    )
  ).rows[0];
}

/** Stores the profile a registration gives: the names and the country. */
export async function insertRegistrationProfile(
  db: Db,
  userId: string,
  profile: { firstName: string; middleName: string | null; lastName: string; country: string },
): Promise<void> {
  await db.query(
    `insert into profiles (user_id, first_name, middle_name, last_name, country) values ($1, $2, $3, $4, $5)`,
    [userId, profile.firstName, profile.middleName, profile.lastName, profile.country],
  );
}
