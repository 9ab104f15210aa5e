import { dateOf } from '../../clock.ts';
import { LOCK_FAMILIES, lockForTransaction } from '../../db/locks.ts';
import { withTransaction } from '../../db/pool.ts';
import { deviceOf } from './devices.ts';
import { mailNewSignInNotice } from './notify.ts';
import type { IdentityDeps, RequestOrigin } from './registration.ts';
import { knownCountry, knownDevice } from './sessions-repository.ts';
import { recordActivity, type UserRecord } from './users-repository.ts';

/**
 * Records a successful login in the security log with its device (`data.device`: browser and OS families, see
 * devices.ts) and, with GEOIP_COUNTRY_DB, its country (`data.country`, ISO code), and mails one notice when the
 * device, the country or both are new (README, "New device or country"): the device when the user has logged in
 * successfully before and never from it; the country when an earlier login has a country and none this one. The
 * checks and the entry share a transaction locked on the user, so two logins from one new place at once send one
 * notice. The notice follows the commit and never fails the login.
 */
export async function recordSuccessfulLogin(
  deps: IdentityDeps,
  user: UserRecord,
  origin: RequestOrigin,
): Promise<void> {
  const device = deviceOf(origin.userAgent);
  // Looked up here, once per login, never per request.
  const country = deps.geoCountry?.countryOf(origin.ip) ?? null;
  const fresh = await withTransaction(deps.db, async (tx) => {
    // Serialises this user's logins for the check: the next one sees this entry.
    await lockForTransaction(tx, [LOCK_FAMILIES.loginDevice, Number(user.id)]);
    const known = await knownDevice(tx, user.id, device.key, origin.userAgent);
    const newDevice = known.anyLogin && !known.seen;
    const place = country ? await knownCountry(tx, user.id, country) : undefined;
    const newCountry = Boolean(place?.anyCountry && !place.seen);
    await recordActivity(tx, {
      userId: user.id,
      action: 'login',
      result: 'succeed',
      ...origin,
      data: {
        device: device.key,
        browser: device.browser,
        os: device.os,
        new_device: newDevice,
        ...(country ? { country, new_country: newCountry } : {}),
      },
    });
    return { device: newDevice, country: newCountry };
  });
  if (fresh.device || fresh.country) {
    await mailNewSignInNotice(
      deps,
      user.email,
      { browser: device.browser, os: device.os, ip: origin.ip, country, at: dateOf(deps.clock) },
      fresh,
      user.anti_phishing_phrase,
    );
  }
}
