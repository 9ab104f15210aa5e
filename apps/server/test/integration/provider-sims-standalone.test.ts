import { spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { type Provider, type StandaloneSimulator, startStandalone } from '@exchange/provider-sims/standalone';
import { createTravelRuleSimulator } from '@exchange/provider-sims/travel-rule';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyBankWebhook } from '../../src/adapters/bank/signing.ts';
import { createMarqetaIssuer } from '../../src/adapters/card-issuer/marqeta.ts';
import { CardIssuerError } from '../../src/adapters/card-issuer/port.ts';
import { KycProviderError } from '../../src/adapters/kyc/port.ts';
import { verifyPayloadDigest } from '../../src/adapters/kyc/signing.ts';
import { createSumsubProvider } from '../../src/adapters/kyc/sumsub.ts';
import type {
  BankSimulatorCredentials,
  CardSimulatorCredentials,
  KycSimulatorCredentials,
} from '../../src/adapters/simulators.ts';
import { httpTravelRule } from '../../src/adapters/travel-rule/http-client.ts';
import type { TravelRuleTransfer } from '../../src/adapters/travel-rule/port.ts';
import type { IvmsPerson } from '../../src/modules/compliance/travel-rule/ivms.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';

/**
 * Each provider simulator as its own HTTP server (`npm run sim -- kyc|card|bank|travel-rule`): the exchange's real adapters
 * reach it as they reach the real provider, it refuses what the provider refuses, and its signed webhooks reach
 * the URL it was given, verifiable with the exchange's own checks.
 */
let db: TestDatabase;
let receiver: Server;
let receiverUrl: string;
const received: { path: string; headers: IncomingHttpHeaders; body: Buffer }[] = [];
const running: StandaloneSimulator[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const sim of running) await sim.close();
  await new Promise((resolve) => receiver?.close(resolve));
  await db?.drop();
});

async function start(provider: Provider) {
  const sim = await startStandalone(provider, {
    db: db.pool,
    webhookUrl: `${receiverUrl}/${provider}`,
    holdMs: 1500,
  });
  running.push(sim);
  return sim;
}

/** The webhooks received at `/<path>` once `count` have come, within 10 s. */
async function webhooks(path: string, count: number) {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
    const got = received.filter((r) => r.path === path);
    if (got.length >= count) return got;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`fewer than ${count} webhooks at ${path}`);
}

describe('the provider simulators as their own servers', () => {
  it('KYC: the Sumsub adapter creates and reads an applicant; the signed webhook verifies', async () => {
    const sim = await start('kyc');
    expect(new URL(sim.url).hostname).toBe('127.0.0.1');
    const credentials = sim.credentials as KycSimulatorCredentials;
    const sumsub = createSumsubProvider({
      baseUrl: sim.url,
      appToken: credentials.appToken,
      secretKey: credentials.secretKey,
    });
    const created = await sumsub.createApplicant({
      externalUserId: 'standalone-user-1',
      levelName: 'basic-kyc-level',
    });
    expect((await sumsub.findApplicantByExternalId('standalone-user-1'))?.id).toBe(created.id);
    expect((await sumsub.getApplicantStatus(created.id)).reviewStatus).toBe('init');
    // Another app's secret: refused as Sumsub refuses it, nothing created.
    const forged = createSumsubProvider({
      baseUrl: sim.url,
      appToken: credentials.appToken,
      secretKey: 'wrong-secret',
    });
    await expect(
      forged.createApplicant({ externalUserId: 'standalone-user-2', levelName: 'basic-kyc-level' }),
    ).rejects.toBeInstanceOf(KycProviderError);
    expect(
      (await db.pool.query(`select 1 from kyc_sim_applicants where external_user_id = 'standalone-user-2'`))
        .rowCount,
    ).toBe(0);
    const [hook] = await webhooks('/kyc', 1);
    expect(JSON.parse(hook!.body.toString())).toMatchObject({
      type: 'applicantCreated',
      applicantId: created.id,
      externalUserId: 'standalone-user-1',
    });
    expect(verifyPayloadDigest(credentials.webhookSecret, hook!.body, hook!.headers)).toBe(true);
    expect(verifyPayloadDigest('another-secret', hook!.body, hook!.headers)).toBe(false);
  });

  it('card issuer: the Marqeta adapter creates a user and asks for its check; wrong credentials are refused', async () => {
    const sim = await start('card');
    const credentials = sim.credentials as CardSimulatorCredentials;
    const marqeta = createMarqetaIssuer({
      baseUrl: sim.url,
      username: credentials.apiUsername,
      password: credentials.apiPassword,
      cardProductToken: 'sim_card_product',
      timeoutMs: 5000,
    });
    const user = await marqeta.createUser({
      token: 'standalone-holder-1',
      first_name: 'Ada',
      last_name: 'Lovelace',
      country: 'JP',
      identifications: [{ type: 'PASSPORT', value: 'TK1234567' }],
    });
    expect(user.token).toBe('standalone-holder-1');
    const kyc = await marqeta.requestKyc({ token: 'standalone-kyc-1', user_token: 'standalone-holder-1' });
    expect(kyc.result.status).toBe('pending');
    const intruder = createMarqetaIssuer({
      baseUrl: sim.url,
      username: credentials.apiUsername,
      password: 'wrong-password',
      cardProductToken: 'sim_card_product',
      timeoutMs: 5000,
    });
    await expect(
      intruder.createUser({
        token: 'standalone-holder-2',
        first_name: 'E',
        last_name: 'V',
        country: 'JP',
        identifications: [],
      }),
    ).rejects.toBeInstanceOf(CardIssuerError);
    expect(
      (await db.pool.query(`select 1 from cardsim_users where token = 'standalone-holder-2'`)).rowCount,
    ).toBe(0);
  });

  it('bank: a transfer booked at its API is notified, signed, to the exchange; a wrong login books nothing', async () => {
    const sim = await start('bank');
    const credentials = sim.credentials as BankSimulatorCredentials;
    const book = (password: string) =>
      fetch(`${sim.url}/incoming-transfers`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${credentials.apiUsername}:${password}`).toString('base64')}`,
          'content-type': 'application/json',
          'idempotency-key': `standalone-${password.length}-transfer`,
        },
        body: JSON.stringify({
          amount: '125.50',
          debtor_name: 'ACME GmbH',
          debtor_iban: 'FR1420041010050500013M02606',
          creditor_reference: 'RF18EX0000000001',
        }),
      });
    const refused = await book('wrong-password');
    expect(refused.status).toBe(401);
    const booked = await book(credentials.apiPassword);
    expect(booked.status, await booked.clone().text()).toBe(201);
    const [hook] = await webhooks('/bank', 1);
    expect(verifyBankWebhook(credentials.webhookSecret, hook!.body, hook!.headers)).toBe(true);
    const notification = JSON.parse(hook!.body.toString());
    expect(notification.entries).toEqual([
      expect.objectContaining({ amount: '125.50', currency: 'EUR', credit_debit: 'CRDT' }),
    ]);
  });

  it("travel rule: the exchange's HTTP port is answered as the network is set; each client address has a budget", async () => {
    const sim = await start('travel-rule');
    expect(sim.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/travel-rule-sim$/);
    const port = httpTravelRule({ baseUrl: () => sim.url, timeoutMs: 500 });
    // The operator's desk works on the same database: a network's members and records live there only.
    const { desk } = createTravelRuleSimulator({ db: db.pool, holdMs: 1500 });
    const person = (last: string): IvmsPerson => ({
      naturalPerson: { name: { nameIdentifier: [{ primaryIdentifier: last, nameIdentifierType: 'LEGL' }] } },
    });
    const transfer = (
      reference: string,
      providerId: string,
      originator = 'Lovelace',
    ): TravelRuleTransfer => ({
      reference,
      providerId,
      asset: 'usdt',
      network: 'tron-sim',
      amount: '1500',
      address: 'TStandaloneBeneficiary',
      payload: {
        originator: { originatorPersons: originator ? [person(originator)] : [], accountNumber: ['ID1'] },
        beneficiary: { beneficiaryPersons: [person('Hopper')], accountNumber: ['TStandaloneBeneficiary'] },
        originatingVASP: { originatingVASP: person('Exchange') },
      },
    });
    expect(await port.send(transfer('standalone-tr-1', 'nordwind'))).toEqual({
      outcome: 'accepted',
      reference: 'SIM-standalone-tr-1',
    });
    expect(await port.send(transfer('standalone-tr-2', 'nordwind', ''))).toEqual({
      outcome: 'refused',
      reason: 'missing_originator',
    });
    await desk.behave('vistula', 'refuse');
    expect(await port.send(transfer('standalone-tr-3', 'vistula'))).toEqual({
      outcome: 'refused',
      reason: 'policy',
    });
    await desk.behave('vistula', 'timeout');
    expect((await port.send(transfer('standalone-tr-4', 'vistula'))).outcome).toBe('unreachable');
    const key = { network: 'tron-sim', txid: 'standalone-txid-1', address: 'TStandaloneOurs' };
    const asked = { ...key, from: 'TStandaloneSender', asset: 'usdt', amount: '10' };
    expect(await port.incoming(asked)).toEqual({ outcome: 'none', providerId: null });
    await desk.attribute({ network: 'tron-sim', address: 'TStandaloneSender', providerId: 'nordwind' });
    expect(await port.incoming(asked)).toEqual({ outcome: 'none', providerId: 'nordwind' });
    const record = {
      originator: { originatorPersons: [person('Lovelace')], accountNumber: ['TStandaloneSender'] },
    };
    await desk.recordIncoming({ ...key, providerId: 'nordwind', payload: record });
    expect(await port.incoming(asked)).toEqual({
      outcome: 'record',
      providerId: 'nordwind',
      payload: record,
    });
    expect((await desk.contents()).messages).toEqual(
      expect.arrayContaining([
        { provider_id: 'nordwind', answer: 'accepted', count: 1 },
        { provider_id: 'vistula', answer: 'timeout', count: 1 },
      ]),
    );
    // The route's own limit holds on its own server too: 120 a minute per address (3 were asked above).
    const statuses: number[] = [];
    for (let i = 0; i < 120; i++)
      statuses.push(
        (
          await fetch(`${sim.url}/incoming`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(asked),
          })
        ).status,
      );
    expect(statuses.filter((status) => status === 200)).toHaveLength(120 - 3);
    expect(statuses.slice(-3)).toEqual([429, 429, 429]);
  });

  it('`npm run sim -- bank` runs one as its own process, prints its address and credentials, and stops on SIGTERM', async () => {
    const root = fileURLToPath(new URL('../../../../', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', 'packages/provider-sims/src/main.ts', 'bank'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: db.url, WEBHOOK_URL: `${receiverUrl}/bank-process`, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      let output = '';
      child.stdout.on('data', (chunk) => {
        output += chunk.toString();
      });
      child.stderr.on('data', (chunk) => {
        output += chunk.toString();
      });
      let started: { url: string; credentials: BankSimulatorCredentials } | undefined;
      for (const deadline = Date.now() + 30_000; !started && Date.now() < deadline; ) {
        try {
          started = JSON.parse(output);
        } catch {
          if (child.exitCode !== null) throw new Error(`the simulator exited: ${output}`);
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      if (!started) throw new Error(`the simulator did not start: ${output}`);
      expect(started.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/bank-sim\/v1$/);
      const { apiUsername, apiPassword } = started.credentials;
      const booked = await fetch(`${started.url}/incoming-transfers`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${apiUsername}:${apiPassword}`).toString('base64')}`,
          'content-type': 'application/json',
          'idempotency-key': 'standalone-process-transfer',
        },
        body: JSON.stringify({
          amount: '7.25',
          debtor_name: 'ACME GmbH',
          debtor_iban: 'FR1420041010050500013M02606',
        }),
      });
      expect(booked.status, await booked.clone().text()).toBe(201);
      // A late webhook says why: the outbox's attempts and last error, and what the process printed.
      const [hook] = await webhooks('/bank-process', 1).catch(async (err: Error) => {
        const { rows } = await db.pool.query(
          `select attempts, last_error, delivered_at is not null as delivered from banksim_webhooks`,
        );
        throw new Error(`${err.message}; outbox ${JSON.stringify(rows)}; output: ${output}`);
      });
      expect(verifyBankWebhook(started.credentials.webhookSecret, hook!.body, hook!.headers)).toBe(true);
    } finally {
      if (child.exitCode === null) child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});
