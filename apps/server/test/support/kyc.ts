import { payloadDigest } from '../../src/adapters/kyc/signing.ts';
import { multipart } from '../../src/adapters/kyc/sumsub.ts';
import type { KycReviewDesk } from '../../src/adapters/simulators.ts';
import type { TestApp } from './app.ts';
import { type BarongSession, barongCall, nextIp, signedInUser } from './identity.ts';

type Session = BarongSession;

/** The KYC simulator's reviewer's desk in a test app (the CLI's `kyc approve` decides through it). */
export function kycDesk(t: TestApp): KycReviewDesk {
  const sim = t.deps.kycSimulator;
  if (!sim) throw new Error('the simulator is not the provider');
  return sim.desk;
}

/** A JPEG, a PNG and a PDF by their signatures (the server tells types by content). */
export const PNG = Buffer.concat([
  Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
  Buffer.alloc(64, 7),
]);
export const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 1)]);
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
/** A complete profile, as the settings form sends it. */
export const PROFILE = {
  gender: 'female',
  dob: '1990-04-12',
  address: '12 Sakura Street',
  postcode: '1000001',
  city: 'Tokyo',
  country: 'JP',
  btnName: 'proceedBtn',
};

/**
 * Helpers for the KYC tests over one test app listening at `base` (read when called, so a file can set them
 * up in beforeAll): calls as a signed-in user, the user's KYC state, the simulator's page and webhooks.
 */
export function kycHarness(ctx: () => { t: TestApp; base: string }) {
  const credentials = () => {
    const sim = ctx().t.deps.kycSimulator;
    if (!sim) throw new Error('the simulator is not the provider');
    return sim.credentials;
  };

  const call = barongCall(() => ctx().t);

  const upload = (session: Session, parts: Parameters<typeof multipart>[0]) => {
    const form = multipart(parts);
    return ctx().t.app.inject({
      method: 'POST',
      url: '/api/v2/barong/resource/documents',
      headers: { cookie: session.cookie, 'x-csrf-token': session.csrf, 'content-type': form.contentType },
      payload: form.body,
      remoteAddress: nextIp(),
    });
  };

  async function signedIn(email: string) {
    const { session, ...user } = await signedInUser(ctx().t, email);
    const uid = (await ctx().t.db.pool.query('select uid, id from users where email = $1', [email])).rows[0];
    return { ...user, session, uid: uid.uid as string, id: String(uid.id) };
  }

  async function state(userId: string) {
    const labels = (await ctx().t.db.pool.query('select key, value from labels where user_id = $1', [userId]))
      .rows;
    const level = (await ctx().t.db.pool.query('select level from users where id = $1', [userId])).rows[0]
      .level;
    const get = (k: string) => labels.find((l) => l.key === k)?.value ?? null;
    return { kyc: get('basic-kyc-level'), document: get('document'), level: level as number };
  }

  /**
   * Lets the simulator deliver what it queued, then reads the user's state. Waits on the condition (every webhook
   * delivered), for up to 20 s: a fixed number of rounds ran out on a loaded machine and read the state too early.
   */
  async function settled(userId: string) {
    const delivery = ctx().t.deps.kycSimulator?.delivery;
    for (const deadline = Date.now() + 20_000; Date.now() < deadline; ) {
      delivery?.kick();
      await delivery?.idle();
      const pending = await ctx().t.db.pool.query(
        'select 1 from kyc_sim_webhooks where delivered_at is null',
      );
      if (pending.rowCount === 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    return state(userId);
  }

  /**
   * The widget's access token from `GET /resource/sumsub/token`; a refusal fails with its status and body (a CI run
   * once got no token here, and the test said only that the page's form had no token).
   */
  async function widgetToken(session: Session): Promise<string> {
    const answer = await call('GET', '/resource/sumsub/token', session);
    if (answer.statusCode !== 200)
      throw new Error(
        `no widget token: ${answer.statusCode} ${answer.body}; the app's last errors: ${ctx().t.errors().join('\n') || 'none'}`,
      );
    return answer.json().token as string;
  }

  /** Submits documents and a selfie through the simulator's verification page, as the browser does. */
  async function submitOnPage(token: string, files: { front?: Buffer; selfie?: Buffer } = {}) {
    const form = multipart([
      { name: 'access_token', value: token },
      { name: 'id_doc_type', value: 'PASSPORT' },
      { name: 'country', value: 'JPN' },
      { name: 'front', fileName: 'passport.jpg', contentType: 'image/jpeg', value: files.front ?? JPEG },
      { name: 'selfie', fileName: 'selfie.png', contentType: 'image/png', value: files.selfie ?? PNG },
    ]);
    return fetch(`${ctx().base}/kyc-sim/websdk/submit`, {
      method: 'POST',
      headers: { 'content-type': form.contentType },
      body: form.body,
      redirect: 'manual',
    });
  }

  /** Sends a webhook signed with the simulator's webhook secret (or a given digest). */
  function webhook(payload: Record<string, unknown>, digest?: string, raw?: string) {
    const body = raw ?? JSON.stringify(payload);
    return ctx().t.app.inject({
      method: 'POST',
      url: '/api/v2/barong/public/kyc/webhook',
      headers: {
        'content-type': 'application/json',
        'x-payload-digest': digest ?? payloadDigest('HMAC_SHA512_HEX', credentials().webhookSecret, body),
        'x-payload-digest-alg': 'HMAC_SHA512_HEX',
      },
      payload: body,
    });
  }

  let correlation = 0;
  const event = (uid: string, type: string, extra: Record<string, unknown> = {}) => ({
    applicantId: `app-${uid}`,
    correlationId: `req-test-${++correlation}`,
    externalUserId: uid,
    levelName: 'basic-kyc-level',
    type,
    createdAtMs: new Date(Date.now() + correlation).toISOString().replace('T', ' ').replace('Z', ''),
    ...extra,
  });

  return { credentials, call, upload, signedIn, state, settled, widgetToken, submitOnPage, webhook, event };
}
