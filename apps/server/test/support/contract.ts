import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestApp } from './app.ts';
import { activeUser, cookieHeader, lastCode, nextIp } from './identity.ts';

/** How a BaseApp call is sent: whether it carries X-CSRF-Token, and as JSON (axios' default) or as a form. */
export interface CallOptions {
  /** BaseApp adds X-CSRF-Token to its mutating calls except login and logout. */
  csrf?: boolean;
  /** Send the body `application/x-www-form-urlencoded`, as many Peatio API clients and bots do. */
  form?: boolean;
}

/**
 * A client that speaks to the server as BaseApp 2.6 does: axios with the session cookie (`withCredentials`), the
 * CSRF token from the login answer (BaseApp keeps it in localStorage) and plain JSON bodies.
 */
export class BaseAppClient {
  cookie = '';
  csrf = '';

  constructor(private readonly t: TestApp) {}

  /** One call to `/api/v2/<service><path>`; keeps a cookie the server sets. */
  async call(
    service: 'barong' | 'peatio',
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    body?: Record<string, unknown>,
    options: CallOptions = {},
  ): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = {};
    if (this.cookie) headers.cookie = this.cookie;
    if (options.csrf && this.csrf) headers['x-csrf-token'] = this.csrf;
    let payload: string | undefined;
    if (body !== undefined && options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = formText(body);
    } else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const res = await this.t.app.inject({
      method,
      url: `/api/v2/${service}${path}`,
      headers,
      remoteAddress: nextIp(),
      ...(payload === undefined ? {} : { payload }),
    });
    const set = cookieHeader(res.headers['set-cookie']);
    if (set) this.cookie = set === 'session=' ? '' : set;
    return res;
  }

  barong = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    body?: Record<string, unknown>,
    options?: CallOptions,
  ) => this.call('barong', method, path, body, options);
  peatio = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    body?: Record<string, unknown>,
    options?: CallOptions,
  ) => this.call('peatio', method, path, body, options);

  /**
   * BaseApp's sign-in for an account without two-factor: the password alone is answered 401 `missing_otp` with
   * the second step it needs (emailed code, and the path that sends it); the code goes in `otp_code`.
   */
  async signIn(email: string, password: string): Promise<Record<string, unknown>> {
    const first = await this.barong('POST', '/identity/sessions', { email, password });
    expect(first.statusCode).toBe(401);
    const step = first.json();
    expect(step.errors).toEqual(['identity.session.missing_otp']);
    const send = await this.t.app.inject({
      method: 'POST',
      url: step.send_code,
      payload: { email, password },
      remoteAddress: nextIp(),
    });
    expect(send.statusCode).toBe(201);
    const res = await this.barong('POST', '/identity/sessions', {
      email,
      password,
      otp_code: await lastCode(this.t, email),
    });
    expect(res.statusCode, res.body).toBe(200);
    this.csrf = res.json().csrf_token;
    return res.json();
  }
}

/** A body as a form: nested objects as `key[field]`, lists as `key[]`. */
export function formText(body: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(body)) {
    if (Array.isArray(value)) for (const v of value) params.append(`${key}[]`, String(v));
    else if (value && typeof value === 'object')
      for (const [field, v] of Object.entries(value)) params.append(`${key}[${field}]`, String(v));
    else if (value !== undefined) params.append(key, String(value));
  }
  return params.toString();
}

/** A registered, verified account signed in through BaseApp's flow; its database id too. */
export async function baseAppUser(t: TestApp, email: string) {
  const user = await activeUser(t, email);
  const client = new BaseAppClient(t);
  const entity = await client.signIn(user.email, user.password);
  const id = Number((await t.db.pool.query('select id from users where email = $1', [email])).rows[0].id);
  return { ...user, id, client, entity };
}

/** ISO 8601 in UTC with milliseconds and `Z`: the one timestamp format of every entity. */
export const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
