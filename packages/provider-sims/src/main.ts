/**
 * `npm run sim -- kyc|card|bank|travel-rule|sms|mail`: one provider's simulator as its own HTTP server (the mail
 * simulator: an SMTP server, on SMTP_PORT, default 2525, and its mailbox over HTTP), on the exchange's database.
 *
 * Environment: DATABASE_URL (required: the exchange's database; the simulators' own tables are migrated at start,
 * as DATABASE_OWNER_URL's role when set, else as DATABASE_URL's if it owns the schema), WEBHOOK_URL (required but
 * for travel-rule, sms and mail: the exchange's webhook for this provider, e.g.
 * http://127.0.0.1:3000/api/v2/barong/public/kyc/webhook), PORT
 * (default 4001, 4002, 4003, 4004, 4005, 4006), HOST (default 127.0.0.1), PUBLIC_URL (KYC: the exchange's public URL),
 * HOLD_MS (travel rule: how long a provider set to time out keeps a request). Prints its base URL and credentials,
 * to configure the exchange with as with the real provider; stops on SIGINT or SIGTERM.
 */
import { createPool } from '@exchange/server/provider-kit';
import { PROVIDERS, type Provider, startStandalone } from './standalone.ts';

const DEFAULT_PORTS: Record<Provider, number> = {
  kyc: 4001,
  card: 4002,
  bank: 4003,
  'travel-rule': 4004,
  sms: 4005,
  mail: 4006,
};

const provider = process.argv[2] as Provider;
const databaseUrl = process.env.DATABASE_URL;
const webhookUrl = process.env.WEBHOOK_URL;
if (
  !PROVIDERS.includes(provider) ||
  !databaseUrl ||
  (!webhookUrl && provider !== 'travel-rule' && provider !== 'sms' && provider !== 'mail')
) {
  console.error(
    `usage: DATABASE_URL=... WEBHOOK_URL=... npm run sim -- ${PROVIDERS.join('|')}  (DATABASE_OWNER_URL, PORT, HOST, PUBLIC_URL, HOLD_MS, SMTP_PORT optional; travel-rule, sms and mail need no WEBHOOK_URL)`,
  );
  process.exit(2);
}
const db = createPool(databaseUrl, 5);
const sim = await startStandalone(provider, {
  db,
  host: process.env.HOST ?? '127.0.0.1',
  port: Number(process.env.PORT ?? DEFAULT_PORTS[provider]),
  webhookUrl,
  publicUrl: process.env.PUBLIC_URL,
  holdMs: process.env.HOLD_MS ? Number(process.env.HOLD_MS) : undefined,
  smtpPort: Number(process.env.SMTP_PORT ?? 2525),
  ownerUrl: process.env.DATABASE_OWNER_URL,
  log: { info: (m) => console.error(m), warn: (m) => console.error(m) },
});
console.log(
  JSON.stringify({ provider, url: sim.url, smtpUrl: sim.smtpUrl, credentials: sim.credentials }, null, 2),
);
const stop = async () => {
  await sim.close();
  await db.end();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
