import type pg from 'pg';
import type { ChangeFeed } from '../../db/change-feed.ts';
import { HeardCache, type HeardCachePolicy } from '../../db/heard-cache.ts';
import {
  findUserById,
  presentUser,
  type UserEntityExtras,
  type UserRecord,
  userEntityExtras,
} from './users-repository.ts';

/** While changes are heard, entries live a minute at most; without, as long as a change made elsewhere may wait. */
export const USER_CACHE: HeardCachePolicy = { heardMs: 60_000, unheardMs: 1_000, size: 50_000 };

/**
 * Users as the auth hooks and `GET /resource/users/me` see them, kept in memory while the change feed says they
 * are unchanged (migration 0030 announces every change of a users, labels, phones or profiles row). A warm
 * authenticated request reads no table. Changes this process makes are forgotten at once as well (`forget`), so a
 * client's next request sees them even before the notification arrives.
 */
export class UserDirectory {
  private readonly users: HeardCache<UserRecord>;
  private readonly extras: HeardCache<UserEntityExtras>;
  /** Serialised entities, each with the users record it was built from. */
  private readonly json = new Map<string, { user: UserRecord; text: string }>();
  private generation = 0;

  constructor(
    private readonly db: pg.Pool,
    feed?: ChangeFeed,
    private readonly policy: HeardCachePolicy = USER_CACHE,
    private readonly now: () => number = Date.now,
  ) {
    this.users = new HeardCache(policy, feed);
    this.extras = new HeardCache(policy, feed);
    feed?.subscribe((payload) => {
      if (payload.startsWith('u:')) this.forget(payload.slice(2));
    });
    feed?.onReset(() => {
      this.generation++;
      this.json.clear();
    });
  }

  /** The user with this id (undefined when there is none). */
  user(id: string): Promise<UserRecord | undefined> {
    return this.users.load(id, this.now(), () => findUserById(this.db, id));
  }

  /** The Barong user entity of `user`. */
  async entity(user: UserRecord) {
    const extras = await this.extras.load(user.id, this.now(), () => userEntityExtras(this.db, user.id));
    return presentUser(user, extras as UserEntityExtras);
  }

  /**
   * The Barong user entity of `user` as JSON text, serialised once for as long as neither `user` (the very record
   * the auth hook resolved) nor its extras change: `GET /resource/users/me` is what clients poll.
   */
  async entityJson(user: UserRecord): Promise<string> {
    const cached = this.json.get(user.id);
    if (cached?.user === user) return cached.text;
    const generation = this.generation;
    const text = JSON.stringify(await this.entity(user));
    if (generation === this.generation) this.json.set(user.id, { user, text });
    if (this.json.size > this.policy.size) this.json.clear();
    return text;
  }

  /** Forgets a user after a change (the next request reads it again). */
  forget(id: string): void {
    this.generation++;
    this.users.forget(id);
    this.extras.forget(id);
    this.json.delete(id);
  }
}
