import type pg from 'pg';
import { planPhoneNormalisation, type StoredPhone } from '../../modules/identity/phone-normalise.ts';

/**
 * Phone numbers as E.164 digits (issue 32): every stored number is normalised by libphonenumber-js (the rules
 * the app now applies where numbers come in), rows of one account that became one number are merged, a number
 * verified by several accounts stays verified on the one that verified it last (the others keep it unverified,
 * which their security log says), and a unique index keeps one verified account per number from here on.
 */
export async function up(client: pg.PoolClient): Promise<void> {
  const rows = (
    await client.query<StoredPhone>(
      'select id::text, user_id::text, number, validated_at from phones order by id',
    )
  ).rows;
  const plan = planPhoneNormalisation(rows);
  if (plan.remove.length > 0)
    await client.query('delete from phones where id = any($1::bigint[])', [plan.remove]);
  if (plan.unverify.length > 0) {
    await client.query('update phones set validated_at = null where id = any($1::bigint[])', [
      plan.unverify.map((r) => r.id),
    ]);
    await client.query(
      `insert into activities (user_id, action, result, topic, data)
       select u, 'phone.unverified', 'failed', 'phone', jsonb_build_object('reason', 'verified by another account')
       from unnest($1::bigint[]) as u`,
      [plan.unverify.map((r) => r.user_id)],
    );
  }
  if (plan.renumber.size > 0)
    await client.query(
      `update phones p set number = n.number from unnest($1::bigint[], $2::text[]) as n(id, number) where p.id = n.id`,
      [[...plan.renumber.keys()], [...plan.renumber.values()]],
    );
  await client.query(
    'create unique index if not exists phones_verified_number_key on phones (number) where validated_at is not null',
  );
}
