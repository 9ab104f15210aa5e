import type { BrowserContext, Page } from 'playwright-core';

/**
 * Our own reconstruction of the calls BaseApp 2.6 makes (not BaseApp itself: its licence forbids redistributing
 * it). Each function sends what the named BaseApp saga sends, as its axios client does: JSON bodies, the session
 * cookie of the page's origin, and `X-CSRF-Token` from `localStorage.csrfToken` on the calls that carry it (the
 * login answer's `csrf_token`, which BaseApp keeps there). It runs in the browser, served at the server's own
 * origin, so the browser's own headers (Origin, Sec-Fetch-Site, cookies) are what the server sees.
 */
const CLIENT = `
window.baseapp = (() => {
  const csrf = () => localStorage.getItem('csrfToken') || undefined;
  async function call(service, method, path, body, withCsrf) {
    // BaseApp names JSON always; axios drops the header of a request without a body.
    const headers = body === undefined ? {} : { 'Content-Type': 'application/json' };
    if (withCsrf && csrf()) headers['X-CSRF-Token'] = csrf();
    const res = await fetch('/api/v2/' + service + path, {
      method,
      headers,
      credentials: 'include',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let data;
    try { data = text ? JSON.parse(text) : undefined; } catch { data = text; }
    return { status: res.status, data };
  }
  const barong = (method, path, body, withCsrf) => call('barong', method, path, body, withCsrf);
  const peatio = (method, path, body, withCsrf) => call('peatio', method, path, body, withCsrf);
  return {
    // signUpSaga
    signUp: (email, password) => barong('POST', '/identity/users', { email, password }),
    // verificationSaga (VerificationScreen posts the link's confirmation_token)
    confirm: (token) => barong('POST', '/identity/users/email/confirm_code', { token }),
    // signInSaga: the password, then (after 401 identity.session.missing_otp) the 2FA box's code as otp_code
    signIn: async (email, password, otp_code) => {
      const res = await barong('POST', '/identity/sessions', otp_code ? { email, password, otp_code } : { email, password });
      if (res.status === 200 && res.data && res.data.csrf_token) localStorage.setItem('csrfToken', res.data.csrf_token);
      return res;
    },
    // generateQRCodeSaga, enable2FASaga (toggle2faSaga)
    generateQr: () => barong('POST', '/resource/otp/generate_qrcode', undefined, true),
    enable2fa: (code) => barong('POST', '/resource/otp/enable', { code }, true),
    // walletsSaga: BaseApp rebuilds its wallets from the balances every few seconds
    balances: () => peatio('GET', '/account/balances'),
    // walletsAddressSaga
    depositAddress: (currency) => peatio('GET', '/account/deposit_address/' + currency),
    // beneficiariesSaga with WalletsScreen's { currency_id }
    beneficiaries: (currency_id) => peatio('GET', '/account/beneficiaries?currency_id=' + currency_id),
    // BeneficiariesAddModal: data is a JSON text
    createBeneficiary: (currency, name, address) =>
      peatio('POST', '/account/beneficiaries', { currency, name, data: JSON.stringify({ address }) }, true),
    // beneficiariesActivateSaga
    activateBeneficiary: (id, pin) => peatio('PATCH', '/account/beneficiaries/' + id + '/activate', { pin }, true),
    // WalletsScreen's withdrawRequest: no blockchain_key, beneficiary_id as a string
    withdraw: (currency, amount, otp, beneficiaryId) =>
      peatio('POST', '/account/withdraws', { amount, currency, otp, beneficiary_id: String(beneficiaryId) }, true),
    // beneficiariesDeleteSaga: no body, no code
    deleteBeneficiary: (id) => peatio('DELETE', '/account/beneficiaries/' + id, undefined, true),
  };
})();
// VerificationScreen: a confirmation link posts its token at once.
const token = new URLSearchParams(location.search).get('confirmation_token');
if (token) window.baseapp.confirm(token).then((res) => { document.body.dataset.confirmed = String(res.status); });
`;

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>BaseApp 2.6 calls</title></head>
<body><main>BaseApp 2.6's calls (a reconstruction)</main><script>${CLIENT}</script></body></html>`;

/**
 * Serves the reconstruction in `context` at `base`'s origin: under `/baseapp/` and at BaseApp's confirmation
 * route, `/accounts/confirmation` (where the mailed link leads with BASEAPP_COMPAT).
 */
export async function serveBaseApp(context: BrowserContext, base: string): Promise<void> {
  for (const pattern of [`${base}/baseapp/**`, `${base}/accounts/confirmation**`])
    await context.route(pattern, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: PAGE }),
    );
}

/** A call of the reconstruction, run in the page: `baseapp(page, 'signUp', email, password)`. */
export function baseapp(
  page: Page,
  name: string,
  ...args: unknown[]
): Promise<{ status: number; data: unknown }> {
  return page.evaluate(
    ([fn, rest]) =>
      (
        window as unknown as {
          baseapp: Record<string, (...a: unknown[]) => Promise<{ status: number; data: unknown }>>;
        }
      ).baseapp[fn as string]?.(...(rest as unknown[])) as Promise<{ status: number; data: unknown }>,
    [name, args] as const,
  );
}
