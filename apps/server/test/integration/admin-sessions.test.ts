import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { adminCall, person, stepUp } from '../support/staff.ts';

/** The console's view of a customer's open sessions, on the app's clock (beside admin.test.ts). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("a customer's sessions in the console", () => {
  it("lists a customer's open sessions as of the app's clock", async () => {
    const who = await person(t, 'support@example.com', 'support');
    const visitor = await person(t, 'visitor@example.com', 'member');
    // The visitor's session ends in ten minutes on the app's clock.
    const ends = t.clock.now() + 10 * 60_000;
    await t.db.pool.query('update sessions set expires_at = $2 where user_id = $1', [
      visitor.id,
      new Date(ends),
    ]);
    const open = async () =>
      (await adminCall(t, 'GET', `/users/${visitor.uid}`, who.headers)).json().sessions;
    await stepUp(t, who);
    expect(await open()).toHaveLength(1);
    t.clock.set(ends + 1_000);
    await stepUp(t, who);
    expect(await open()).toEqual([]);
  });
});
