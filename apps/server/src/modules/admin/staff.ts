import { STAFF_ROLES } from '@exchange/shared';
import type pg from 'pg';
import { isStaffRole } from './access.ts';

/** The staff commands' usage lines. */
export const STAFF_USAGE = `  staff grant <email> <role>
                            make a user staff: ${STAFF_ROLES.join(', ')} (the first superadmin comes from here)
  staff revoke <email>      back to a customer
  staff list                the staff and their roles`;

/** `npm run cli -- staff grant|revoke|list`; `undefined` when `argv` is not a staff command. */
export async function staffCommand(
  argv: string[],
  db: pg.Pool,
): Promise<{ ok: boolean; message: string } | undefined> {
  const [area, command, email, role] = argv;
  if (area !== 'staff') return undefined;
  if (command === 'list') {
    const rows = await db.query(
      `select email, role, otp from users where role <> 'member' order by role, email`,
    );
    return {
      ok: true,
      message:
        rows.rows
          .map((r) => `${r.role}\t${r.email}${r.otp ? '' : '\t(2FA off: no console until it is on)'}`)
          .join('\n') || 'no staff',
    };
  }
  if (command === 'grant' && email && role) {
    if (!isStaffRole(role))
      return { ok: false, message: `unknown role ${role}: one of ${STAFF_ROLES.join(', ')}` };
    const updated = await db.query(
      `update users set role = $2, updated_at = now() where lower(email) = lower($1) returning otp`,
      [email, role],
    );
    if (updated.rowCount === 0) return { ok: false, message: `no user with email ${email}` };
    const otp = updated.rows[0].otp as boolean;
    return {
      ok: true,
      message: `${email} is now ${role}${otp ? '' : '; they must turn two-factor authentication on before the console opens'}`,
    };
  }
  if (command === 'revoke' && email) {
    const updated = await db.query(
      `update users set role = 'member', updated_at = now() where lower(email) = lower($1) returning id`,
      [email],
    );
    if (updated.rowCount === 0) return { ok: false, message: `no user with email ${email}` };
    return { ok: true, message: `${email} is a customer again` };
  }
  return { ok: false, message: `usage:\n${STAFF_USAGE}` };
}
