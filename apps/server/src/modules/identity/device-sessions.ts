import { ERRORS } from '@exchange/shared';
import type pg from 'pg';
import { withTransaction } from '../../db/pool.ts';
import { AppError } from '../../http/errors.ts';
import { deviceOf } from './devices.ts';
import type { RequestOrigin } from './registration.ts';
import type { SessionStore } from './sessions.ts';
import { endSessionByPublicId, endUserSessions, listLiveSessions } from './sessions-repository.ts';
import { recordActivity } from './users-repository.ts';

/** What the Devices use cases need. */
export interface DeviceSessionDeps {
  db: pg.Pool;
  sessions: SessionStore;
}

/** A live session as `GET /resource/sessions` shows it. */
export interface SessionView {
  id: string;
  browser: string;
  os: string;
  user_ip: string | null;
  user_agent: string | null;
  current: boolean;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

/**
 * The user's live sessions (newest first, a page of them, and the total), each with the browser and OS parsed
 * from its user agent; the request's own session is `current` ("this device"; none for an API key).
 */
export async function listSessions(
  deps: DeviceSessionDeps,
  userId: string,
  currentSessionId: string | undefined,
  page: number,
  limit: number,
): Promise<{ items: SessionView[]; total: number }> {
  const { rows, total } = await listLiveSessions(deps.db, userId, deps.sessions.liveness(), page, limit);
  const items = rows.map((row) => {
    const device = deviceOf(row.user_agent);
    return {
      id: row.public_id,
      browser: device.browser,
      os: device.os,
      user_ip: row.ip,
      user_agent: row.user_agent,
      current: row.id === currentSessionId,
      created_at: row.created_at,
      last_seen_at: row.last_seen_at,
      expires_at: row.expires_at,
    };
  });
  return { items, total };
}

/**
 * Ends one of the user's other sessions ("End session" on a device). An unknown, ended or malformed id, or one of
 * another user's sessions, answers 404 `resource.session.doesnt_exist` alike; the request's own session is refused
 * with 422 `resource.session.current` (logout ends it). The end and its `session.end` entry (reason `user`) commit
 * together; every api process refuses the session once the change feed tells it (migration 0030), this one at once.
 */
export async function endSession(
  deps: DeviceSessionDeps,
  userId: string,
  currentSessionId: string,
  publicId: string,
  origin: RequestOrigin,
): Promise<void> {
  const ended = await withTransaction(deps.db, async (tx) => {
    const row = await endSessionByPublicId(tx, userId, publicId, deps.sessions.liveness(), 'user');
    if (!row) throw new AppError(404, [ERRORS.sessionNotFound]);
    // Checked after the update, in its transaction: the refusal rolls the end back.
    if (row.id === currentSessionId) throw new AppError(422, [ERRORS.sessionIsCurrent]);
    const device = deviceOf(row.user_agent);
    await recordActivity(tx, {
      userId,
      action: 'session.end',
      result: 'succeed',
      topic: 'session',
      ...origin,
      data: { reason: 'user', session: row.public_id, browser: device.browser, os: device.os, ip: row.ip },
    });
    return row.id;
  });
  deps.sessions.forget([ended]);
}

/**
 * Ends every live session of the user but the request's own ("End all other sessions"), with one `session.end`
 * entry (reason `others`) in the same transaction; returns how many ended.
 */
export async function endOtherSessions(
  deps: DeviceSessionDeps,
  userId: string,
  currentSessionId: string,
  origin: RequestOrigin,
): Promise<number> {
  const ended = await withTransaction(deps.db, async (tx) => {
    const ids = await endUserSessions(tx, userId, currentSessionId, deps.sessions.liveness(), 'others');
    if (ids.length > 0) {
      await recordActivity(tx, {
        userId,
        action: 'session.end',
        result: 'succeed',
        topic: 'session',
        ...origin,
        data: { reason: 'others', sessions: ids.length },
      });
    }
    return ids;
  });
  deps.sessions.forget(ended);
  return ended.length;
}
