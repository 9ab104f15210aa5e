import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { oathtoolCode } from './identity.ts';
import { BUILT_CLI } from './process.ts';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * Helpers for a real server process (see `startServerProcess`): requests as a signed-in user, the operator
 * command line, and SQL on its embedded database.
 */

/** An answer: status and parsed JSON body. */
export interface Answer {
  status: number;
  body: unknown;
}

/** A browser session: the cookie and its CSRF token. */
export interface Session {
  email: string;
  cookie: string;
  csrf: string;
}

/** The URL of the embedded database of a server started on `dataDir` with `env`. */
export async function embeddedUrl(dataDir: string, env: Record<string, string>): Promise<string> {
  const password = (await readFile(path.join(dataDir, '.pg-password'), 'utf8')).trim();
  return `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${env.EMBEDDED_PG_PORT}/exchange`;
}

/** One SQL statement on its own connection. */
export async function sql<R extends pg.QueryResultRow = Record<string, unknown>>(
  url: string,
  text: string,
  values: unknown[] = [],
): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** `npm run cli -- <args>` (the built command line) with the server's environment. */
export function cli(env: Record<string, string>, args: string[]) {
  const run = spawnSync(process.execPath, [BUILT_CLI, ...args], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'test', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** A client of one server: JSON requests, sign-in with the emailed code, and 2FA codes. */
export function liveClient(base: string, dbUrl: () => string, password: string) {
  const call = async (
    method: string,
    url: string,
    body?: unknown,
    session?: Session,
    extra: Record<string, string> = {},
  ): Promise<Answer> => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: {
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...(session ? { cookie: session.cookie, 'x-csrf-token': session.csrf } : {}),
        ...extra,
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };

  /** The newest message to `email` as the dev outbox API shows it: its secret filled in, this once. */
  const lastMail = async (email: string): Promise<string> => {
    const res = await fetch(`${base}/api/v2/barong/dev/outbox?to=${encodeURIComponent(email)}&limit=1`);
    const [mail] = (await res.json()) as { body: string }[];
    return mail?.body ?? '';
  };

  /** Signs a user in with password and the emailed code, as the web app does. */
  const login = async (email: string): Promise<Session> => {
    const sent = await call('POST', '/api/v2/barong/identity/sessions/resent_otp', {
      session_type: 'email',
      email,
      password,
    });
    if (sent.status !== 201) throw new Error(`resent_otp: ${JSON.stringify(sent.body)}`);
    const code = /\b(\d{5,6})\b/.exec(await lastMail(email))?.[1];
    const res = await fetch(`${base}/api/v2/barong/identity/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ session_type: 'email', email, password, code, authentication_state: 'web' }),
    });
    if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${await res.text()}`);
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    return { email, cookie, csrf: ((await res.json()) as { csrf_token: string }).csrf_token };
  };

  /** A fresh authenticator code (the replay guard is reset, as if time had moved on). */
  const totp = async (session: Session, secret: string): Promise<string> => {
    await sql(dbUrl(), 'update users set otp_last_step = 0 where lower(email) = lower($1)', [session.email]);
    return oathtoolCode(secret);
  };

  /** Turns two-factor authentication on; returns the base32 secret. */
  const enableTwoFactor = async (session: Session): Promise<string> => {
    const qr = await call('POST', '/api/v2/barong/resource/otp/generate_qrcode', undefined, session);
    const url = (qr.body as { data?: { url?: string } }).data?.url ?? '';
    const secret = new URL(url).searchParams.get('secret') ?? '';
    const enabled = await call(
      'POST',
      '/api/v2/barong/resource/otp/enable',
      { code: oathtoolCode(secret) },
      session,
    );
    if (enabled.status !== 201) throw new Error(`enable 2FA: ${JSON.stringify(enabled.body)}`);
    return secret;
  };

  return { call, login, lastMail, totp, enableTwoFactor };
}
