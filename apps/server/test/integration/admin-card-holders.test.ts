import { describe, expect, it } from 'vitest';
import { cardSuite } from '../support/card.ts';
import { adminCall, asStaff, type Person, stepUp } from '../support/staff.ts';

/** Compliance reviews card holders in the console, through the issuer (the simulator's reviewer). */
const s = cardSuite();

let officer: Person | undefined;
async function compliance() {
  if (!officer) {
    officer = await asStaff(s.t, (await s.member('compliance@card-review.test')).id, 'compliance');
    await stepUp(s.t, officer);
  }
  return officer;
}
const admin = async (method: string, url: string, body?: unknown) =>
  adminCall(s.t, method, url, (await compliance()).headers, body);

describe('card holder review in the console', () => {
  it('shows the queue with the documents; incomplete reaches the holder with the reason; approval lets them order', async () => {
    const who = await s.member('holder@card-review.test');
    await s.submitted(who);
    const uid = (await s.db.query('select uid from users where id = $1', [who.id])).rows[0].uid as string;
    const queue = (await admin('GET', '/card_holders')).json() as {
      uid: string;
      documents: { id: number; type: string }[];
    }[];
    const entry = queue.find((q) => q.uid === uid);
    expect(entry?.documents.map((d) => d.type)).toEqual(['passport', 'selfie']);
    const image = await admin('GET', `/card_holders/${uid}/documents/${entry?.documents[0]?.id}`);
    expect([image.statusCode, image.headers['content-type'], image.headers['cache-control']]).toEqual([
      200,
      'image/jpeg',
      'no-store, private',
    ]);
    // Under another user's uid the same document id is not found.
    const other = await s.member('other@card-review.test');
    const otherUid = (await s.db.query('select uid from users where id = $1', [other.id])).rows[0].uid;
    const elsewhere = await admin('GET', `/card_holders/${otherUid}/documents/${entry?.documents[0]?.id}`);
    expect([elsewhere.statusCode, elsewhere.json()]).toEqual([404, { errors: ['admin.user.not_found'] }]);
    const noReason = await admin('POST', `/card_holders/${uid}/review`, { decision: 'incomplete' });
    expect([noReason.statusCode, noReason.json()]).toEqual([422, { errors: ['admin.reason_required'] }]);

    const reason = 'The selfie does not show your face clearly.';
    const asked = await admin('POST', `/card_holders/${uid}/review`, { decision: 'incomplete', reason });
    expect(asked.json()).toEqual({ uid, kyc_status: 'failure' });
    await s.settle();
    expect((await s.call(who, 'GET', '/account/card_audit')).json()).toEqual({
      status: 'incomplete_information',
      description: reason,
    });
    // Nothing is waiting any more: a second decision is refused and changes nothing.
    const again = await admin('POST', `/card_holders/${uid}/review`, {
      decision: 'approve',
      reason: 'ok now',
    });
    expect([again.statusCode, again.json()]).toEqual([422, { errors: ['admin.card_holder.not_reviewable'] }]);

    expect((await s.call(who, 'POST', '/account/cardholder_document')).json().status).toBe('under_review');
    const approved = await admin('POST', `/card_holders/${uid}/review`, {
      decision: 'approve',
      reason: 'documents match',
    });
    expect(approved.json()).toEqual({ uid, kyc_status: 'success' });
    await s.settle();
    expect((await s.call(who, 'GET', '/account/cardholder_details')).json()).toMatchObject({
      status: 'activation_successful',
      bindSuccess: true,
    });
    const trail = (await admin('GET', '/actions?action=card_holder.incomplete')).json();
    expect(trail[0]).toMatchObject({ target: uid, after: { kyc: 'failure', reason } });
  });
});
