import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchUsers } from '../../src/modules/admin/customers.ts';
import { staffCommand } from '../../src/modules/admin/staff.ts';
import { findUserDetail } from '../../src/modules/admin/users.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { activeUser } from '../support/identity.ts';

/** The command line's staff and user commands, on the functions the CLI calls (`npm run cli -- staff ...`). */
describe('staff and user commands of the CLI', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await activeUser(t, 'cli-staff@example.com');
  });
  afterAll(() => t.close());

  it('grants a role by email in any case, lists the staff, and revokes it', async () => {
    const db = t.db.pool;
    expect(await staffCommand(['staff', 'grant', 'nobody@example.com', 'support'], db)).toEqual({
      ok: false,
      message: 'no user with email nobody@example.com',
    });
    expect(await staffCommand(['staff', 'grant', 'CLI-Staff@example.com', 'support'], db)).toEqual({
      ok: true,
      message:
        'CLI-Staff@example.com is now support; they must turn two-factor authentication on before the console opens',
    });
    const listed = await staffCommand(['staff', 'list'], db);
    expect(listed?.ok).toBe(true);
    expect(listed?.message.split('\n')).toContain(
      'support\tcli-staff@example.com\t(2FA off: no console until it is on)',
    );
    expect(await staffCommand(['staff', 'revoke', 'cli-staff@example.com'], db)).toEqual({
      ok: true,
      message: 'cli-staff@example.com is a customer again',
    });
    expect((await staffCommand(['staff', 'list'], db))?.message).not.toContain('cli-staff@example.com');
    expect(await staffCommand(['staff', 'revoke', 'nobody@example.com'], db)).toEqual({
      ok: false,
      message: 'no user with email nobody@example.com',
    });
  });

  it('shows a user by email with labels, phones, profiles and balances, and finds them by a search text', async () => {
    const db = t.db.pool;
    expect(await findUserDetail(db, 'nobody@example.com')).toBeNull();
    const shown = await findUserDetail(db, 'CLI-STAFF@example.com');
    expect(shown).toMatchObject({
      email: 'cli-staff@example.com',
      role: 'member',
      state: 'active',
      otp: false,
    });
    expect(shown?.uid).toMatch(/^ID[0-9A-F]{10}$/);
    expect(shown?.created_at).toBeInstanceOf(Date);
    expect(shown?.labels.map((l) => l.key)).toEqual(expect.arrayContaining(['email', 'phone']));
    expect(shown?.phones).toHaveLength(1);
    expect(shown?.phones[0]?.validated_at).toBeInstanceOf(Date);
    const found = await searchUsers(db, { q: 'cli-staff@', page: 1, limit: 10 });
    expect(found.total).toBe(1);
    expect(found.items).toEqual([
      expect.objectContaining({ uid: shown?.uid, email: 'cli-staff@example.com' }),
    ]);
    // `_` and `%` of the search text match only themselves.
    expect(await searchUsers(db, { q: 'cli_staff', page: 1, limit: 10 })).toEqual({ items: [], total: 0 });
  });
});
