/**
 * The topics of the security log (`GET /resource/users/activity/{topic}`, Barong's Activity `topic`), and the
 * actions recorded under each. `all` lists every topic.
 *
 * - `session`: `login` (succeed, or failed with `data.reason`: `password`, `otp`, `code`, `blocked`,
 *   `not_active`), `logout`, `session.end` (`data.reason`: `user` for one device, `others` for all but the
 *   current one, `staff`, `idle`, `expired`);
 * - `password`: `password.change`, `password.reset`; `phone`: `phone.change`; `otp`: `otp.enable`, `otp.disable`,
 *   `otp.reset_by_staff`;
 * - `api_keys`: `api_key.create`, `api_key.active`, `api_key.inactive`, `api_key.delete`;
 * - `beneficiary`: `beneficiary.create`, `beneficiary.activate`, `beneficiary.delete`, `beneficiary.prove` (control
 *   of a self-hosted address proved by a signed message);
 * - `withdraw`: `withdraw.request`;
 * - `account`: sign-up, verification, the anti-phishing phrase, and a business account's company:
 *   `company.update`, `company.document`, `company.submit`; `card`: card details shown, PIN;
 * - `data_export`: `data_export` (a copy of the user's data was taken: `succeed` when the download starts, with
 *   `data.export_id`; `failed` with `data.reason: "server"` when the server could not finish it);
 * - `ip_whitelist`: `ip_whitelist.add`, `ip_whitelist.remove` (the login list; `data.ip`), `api_key.allowed_ips`
 *   (a key's list set; `data.kid`, `data.allowed_ips`), and the refusals: `login` failed with `data.reason`
 *   `ip_not_allowed`, `api_key.ip_not_allowed` (`data.kid`; at most once a minute per key and api process);
 * - `account_closure`: `closure.request` (`data.closure_id`), `closure.cancel`, `closure.complete` (issue 31, part 4).
 */
export const SECURITY_LOG_TOPICS = [
  'session',
  'password',
  'phone',
  'otp',
  'api_keys',
  'beneficiary',
  'withdraw',
  'account',
  'card',
  'data_export',
  'ip_whitelist',
  'account_closure',
] as const;

/** One topic of {@link SECURITY_LOG_TOPICS}. */
export type SecurityLogTopic = (typeof SECURITY_LOG_TOPICS)[number];
