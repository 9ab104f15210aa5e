import { z } from 'zod';
import { isoTime } from './common.ts';

/** A live session of the signed-in user (`GET /resource/sessions`), one per device and login. */
export const sessionResponse = z
  .object({
    /** The session's public id (never its cookie, nor the hash the server keys it by). */
    id: z.uuid(),
    /** Browser family from the user agent (`Chrome`, `Firefox`...; `Unknown`). */
    browser: z.string(),
    /** Operating system family from the user agent (`Windows`, `macOS`, `Android`...; `Unknown`). */
    os: z.string(),
    user_ip: z.string().nullable(),
    user_agent: z.string().nullable(),
    /** True for the session of this very request ("this device"). */
    current: z.boolean(),
    created_at: isoTime,
    /** Last request seen (written at most once a minute). */
    last_seen_at: isoTime,
    /** The session's absolute end, whatever its activity. */
    expires_at: isoTime,
  })
  .meta({
    id: 'Session',
    examples: [
      {
        id: '0b6c1f4e-8a9d-4c53-9f1e-2a7d5b3c4e11',
        browser: 'Firefox',
        os: 'Windows',
        user_ip: '203.0.113.7',
        user_agent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0',
        current: true,
        created_at: '2026-05-01T09:30:00.123Z',
        last_seen_at: '2026-05-01T09:41:00.000Z',
        expires_at: '2026-05-02T09:30:00.123Z',
      },
    ],
  });

/** `DELETE /resource/sessions`: how many sessions other than the current one were ended. */
export const otherSessionsEndedResponse = z
  .object({ ended: z.number().int().min(0) })
  .meta({ id: 'OtherSessionsEnded', examples: [{ ended: 2 }] });

/** An entry of the login IP whitelist (`GET /resource/ip_whitelist`). */
export const ipWhitelistEntryResponse = z
  .object({
    /** The entry's id, to remove it by. */
    id: z.string(),
    /** The address or CIDR range in its canonical form (an IPv4-mapped IPv6 entry is shown as IPv4). */
    ip: z.string(),
    created_at: isoTime,
  })
  .meta({
    id: 'IpWhitelistEntry',
    examples: [{ id: '12', ip: '203.0.113.0/24', created_at: '2026-05-01T09:30:00.123Z' }],
  });
