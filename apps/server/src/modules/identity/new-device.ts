import { LOCK_FAMILIES, lockForTransaction } from '../../db/locks.ts';
import { withTransaction } from '../../db/pool.ts';
import { deviceOf } from './devices.ts';
import { mailNewDeviceNotice } from './notify.ts';
import type { IdentityDeps, RequestOrigin } from './registration.ts';
import { knownDevice } from './sessions-repository.ts';
import { recordActivity, type UserRecord } from './users-repository.ts';

/**
 * Records a successful login in the security log with its device (`data.device`: browser and OS families, see
 * devices.ts), and mails the new-device notice when the user has logged in successfully before and never from
 * this device (README, "New device"). The check and the entry share a transaction locked on the user, so two
 * logins from one new device at once send one notice. The notice follows the commit and never fails the login.
 */
export async function recordSuccessfulLogin(
  deps: IdentityDeps,
  user: UserRecord,
  origin: RequestOrigin,
): Promise<void> {
  const device = deviceOf(origin.userAgent);
  const isNew = await withTransaction(deps.db, async (tx) => {
    // Serialises this user's logins for the check: the next one sees this entry.
    await lockForTransaction(tx, [LOCK_FAMILIES.loginDevice, Number(user.id)]);
    const known = await knownDevice(tx, user.id, device.key, origin.userAgent);
    const fresh = known.anyLogin && !known.seen;
    await recordActivity(tx, {
      userId: user.id,
      action: 'login',
      result: 'succeed',
      ...origin,
      data: { device: device.key, browser: device.browser, os: device.os, new_device: fresh },
    });
    return fresh;
  });
  if (isNew) {
    await mailNewDeviceNotice(
      deps,
      user.email,
      { browser: device.browser, os: device.os, ip: origin.ip, at: new Date() },
      user.anti_phishing_phrase,
    );
  }
}
