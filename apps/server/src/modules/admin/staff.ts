import { STAFF_ROLES } from '@exchange/shared';
import type pg from 'pg';
import { isStaffRole } from './access.ts';
import { grantRole, revokeRole, staffMembers } from './staff-repository.ts';

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
    const rows = await staffMembers(db);
    return {
      ok: true,
      message:
        rows
          .map((r) => `${r.role}\t${r.email}${r.otp ? '' : '\t(2FA off: no console until it is on)'}`)
          .join('\n') || 'no staff',
    };
  }
  if (command === 'grant' && email && role) {
    if (!isStaffRole(role))
      return { ok: false, message: `unknown role ${role}: one of ${STAFF_ROLES.join(', ')}` };
    const updated = await grantRole(db, email, role);
    if (!updated) return { ok: false, message: `no user with email ${email}` };
    const otp = updated.otp;
    return {
      ok: true,
      message: `${email} is now ${role}${otp ? '' : '; they must turn two-factor authentication on before the console opens'}`,
    };
  }
  if (command === 'revoke' && email) {
    if (!(await revokeRole(db, email))) return { ok: false, message: `no user with email ${email}` };
    return { ok: true, message: `${email} is a customer again` };
  }
  return { ok: false, message: `usage:\n${STAFF_USAGE}` };
}
