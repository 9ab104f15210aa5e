import path from 'node:path';
import pg from 'pg';
import { readOrCreatePassword } from './embedded.ts';
import { LOCKS, lockSession } from './locks.ts';
import type { SelectOne } from './pool.ts';
import { adoptDatabase, ensureLoginRole } from './privileges.ts';

/** Owns the embedded database's schema: migrations run as this role. */
export const OWNER_ROLE = 'exchange_owner';
/** The app's own role: rows only, under the grants the owner gives it. */
export const APP_ROLE = 'exchange_app';

interface Logger {
  info(msg: string): void;
}

/**
 * Prepares the embedded server's two roles beside its superuser, with passwords kept in DATA_DIR as the
 * superuser's is: `exchange_owner`, which owns the database and migrates it, and `exchange_app`, which the app's
 * pools use. Neither is a superuser nor may create databases or roles. A data folder of an earlier version, whose
 * tables the superuser owns, is handed to the owner here, once. Runs as the superuser at every start (cheap when
 * nothing changed), under the migration lock so that a command-line tool starting beside the app waits its turn.
 * A missing password file (a restored backup holds only the superuser's) is made anew and the role follows it.
 * @returns the URLs of the owner and the app for the database of `superUrl`.
 */
export async function prepareEmbeddedRoles(
  superUrl: string,
  dataDir: string,
  log: Logger,
): Promise<{ ownerUrl: string; appUrl: string }> {
  const owner = await readOrCreatePassword(path.join(dataDir, '.pg-owner-password'));
  const app = await readOrCreatePassword(path.join(dataDir, '.pg-app-password'));
  const database = new URL(superUrl).pathname.slice(1);
  const client = new pg.Client({ connectionString: superUrl, application_name: 'exchange-roles' });
  client.on('error', () => {});
  await client.connect();
  try {
    await lockSession(client, LOCKS.migration);
    await ensureLoginRole(client, OWNER_ROLE, owner);
    await ensureLoginRole(client, APP_ROLE, app);
    // The app's role must not inherit the owner's rights, whoever granted them.
    const member = await client.query<SelectOne>(
      `select 1 from pg_auth_members m join pg_roles r on r.oid = m.roleid join pg_roles a on a.oid = m.member
        where r.rolname = $1 and a.rolname = $2`,
      [OWNER_ROLE, APP_ROLE],
    );
    if (member.rowCount) await client.query(`revoke ${OWNER_ROLE} from ${APP_ROLE}`);
    const changed = await adoptDatabase(client, database, OWNER_ROLE);
    if (changed > 0) log.info(`database ${database}: ${changed} objects now owned by ${OWNER_ROLE}`);
  } finally {
    // Ending the connection ends its lock.
    await client.end().catch(() => {});
  }
  return { ownerUrl: withRole(superUrl, OWNER_ROLE, owner), appUrl: withRole(superUrl, APP_ROLE, app) };
}

/** `url` with another role and password. */
export function withRole(url: string, role: string, password: string): string {
  const parsed = new URL(url);
  parsed.username = role;
  parsed.password = encodeURIComponent(password);
  return parsed.toString();
}
