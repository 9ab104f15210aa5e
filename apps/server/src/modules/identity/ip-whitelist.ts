import { ERRORS, IP_WHITELIST } from '@exchange/shared';
import { withTransaction } from '../../db/pool.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { IpRuleSet } from '../../net/ip-rules.ts';
import {
  deleteEntry,
  type IpWhitelistEntry,
  insertEntry,
  listEntries,
  lockUserList,
  loginRules,
} from './ip-whitelist-repository.ts';
import { canonicalRules } from './ip-whitelist-rules.ts';
import { requireTotp } from './otp.ts';
import type { IdentityDeps, RequestOrigin } from './registration.ts';
import { recordActivity, type UserRecord } from './users-repository.ts';

/**
 * Refuses a list that would shut out the address the change is made from (422
 * `resource.ip_whitelist.excludes_current_ip`): the user would find out only at their next login, from here,
 * when it is too late to change it. An empty list restricts nothing.
 */
function assertKeepsCurrent(rules: readonly string[], origin: RequestOrigin): void {
  if (!new IpRuleSet(rules).allows(origin.ip)) throw invalid(ERRORS.ipWhitelistExcludesCurrent);
}

/** What adding `rule` to `rules` would break, if anything: the checks run before and after the code. */
function assertCanAdd(rules: readonly string[], rule: string, origin: RequestOrigin): void {
  if (rules.includes(rule)) throw invalid(ERRORS.ipWhitelistDuplicate);
  if (rules.length >= IP_WHITELIST.maxEntries) throw invalid(ERRORS.ipWhitelistTooMany);
  assertKeepsCurrent([...rules, rule], origin);
}

/** The signed-in user's login whitelist, oldest first. */
export function listLoginWhitelist(deps: IdentityDeps, userId: string): Promise<IpWhitelistEntry[]> {
  return listEntries(deps.db, userId);
}

/**
 * Adds an address or CIDR range (any spelling; stored canonical) to the user's login whitelist. Needs two-factor
 * (403 `resource.otp.not_enabled`) and an authenticator code not used before (422 `resource.otp.*`). The entry is
 * read and checked before the code, so a mistyped entry does not use a code up, and checked again in the
 * transaction that adds it (under a lock on the user, against concurrent changes) with its `ip_whitelist.add`
 * entry in the security log. Logins read the list from the database, so every api process applies it at once.
 */
export async function addLoginWhitelistEntry(
  deps: IdentityDeps,
  user: UserRecord,
  input: { ip: string; totp_code: string },
  origin: RequestOrigin,
): Promise<IpWhitelistEntry> {
  if (!user.otp || !user.otp_secret_enc) throw new AppError(403, [ERRORS.otpNotEnabled]);
  const [rule = ''] = canonicalRules([input.ip]);
  assertCanAdd(await loginRules(deps.db, user.id), rule, origin);
  await requireTotp(deps, user, input.totp_code);
  return withTransaction(deps.db, async (tx) => {
    await lockUserList(tx, user.id);
    assertCanAdd(
      (await listEntries(tx, user.id)).map((e) => e.ip),
      rule,
      origin,
    );
    const entry = await insertEntry(tx, user.id, rule);
    await recordActivity(tx, {
      userId: user.id,
      action: 'ip_whitelist.add',
      result: 'succeed',
      topic: 'ip_whitelist',
      ...origin,
      data: { ip: rule },
    });
    return entry;
  });
}

/**
 * Removes one entry of the user's login whitelist, with an authenticator code. Another user's entry, an unknown
 * and a malformed id answer 404 `resource.ip_whitelist.doesnt_exist` alike (checked before the code, which they
 * do not use up). A removal that would leave entries none of which holds the current address is refused, like
 * an add.
 */
export async function removeLoginWhitelistEntry(
  deps: IdentityDeps,
  user: UserRecord,
  id: string,
  totpCode: string,
  origin: RequestOrigin,
): Promise<void> {
  if (!user.otp || !user.otp_secret_enc) throw new AppError(403, [ERRORS.otpNotEnabled]);
  const notFound = () => new AppError(404, [ERRORS.ipWhitelistNotFound]);
  if (!/^\d{1,18}$/.test(id)) throw notFound();
  const remaining = (entries: IpWhitelistEntry[]) => {
    if (!entries.some((e) => e.id === id)) throw notFound();
    assertKeepsCurrent(
      entries.filter((e) => e.id !== id).map((e) => e.ip),
      origin,
    );
  };
  remaining(await listEntries(deps.db, user.id));
  await requireTotp(deps, user, totpCode);
  await withTransaction(deps.db, async (tx) => {
    await lockUserList(tx, user.id);
    remaining(await listEntries(tx, user.id));
    const removed = await deleteEntry(tx, user.id, id);
    if (!removed) throw notFound();
    await recordActivity(tx, {
      userId: user.id,
      action: 'ip_whitelist.remove',
      result: 'succeed',
      topic: 'ip_whitelist',
      ...origin,
      data: { ip: removed.ip },
    });
  });
}

/**
 * True when the login whitelist lets `user` log in from `ip`. Only accounts with two-factor have a list in
 * force: the list is set with a code, and a staff reset of two-factor (after an identity check) is the way
 * back in for a user who can no longer reach any listed address.
 */
export async function loginAllowedFrom(deps: IdentityDeps, user: UserRecord, ip: string): Promise<boolean> {
  if (!user.otp || !user.otp_secret_enc) return true;
  return new IpRuleSet(await loginRules(deps.db, user.id)).allows(ip);
}
