import { type MultipartBody, sniffDocumentType } from '@exchange/server/provider-kit';
import { REGISTRATION_COUNTRIES } from '@exchange/shared';
import type pg from 'pg';
import {
  actOnApplicant,
  addSimDocument,
  applicantForToken,
  type SimApplicant,
  type SimulatorCredentials,
  simulatorDocumentKey,
} from './store.ts';

/**
 * Identity documents the page offers (the FAQ's list: passport, national ID, driver's licence, military ID), and
 * whether each has a back side. Sumsub has no idDocType of its own for a military ID: it goes as `OTHER`.
 */
const DOC_TYPES: { value: string; label: string; twoSided: boolean }[] = [
  { value: 'PASSPORT', label: 'Passport', twoSided: false },
  { value: 'ID_CARD', label: 'National ID card', twoSided: true },
  { value: 'DRIVERS', label: "Driver's licence", twoSided: true },
  { value: 'OTHER', label: 'Military ID', twoSided: true },
];

/** The page's colours: the exchange passes its own theme (`theme=dark|light`), dark by default like the app. */
export type SimTheme = 'dark' | 'light';
export const simTheme = (value: string | undefined): SimTheme => (value === 'light' ? 'light' : 'dark');

/** The applicant's own country as ISO 3166 alpha-3 (the profile keeps the registration's alpha-2 code). */
function applicantCountry(a: SimApplicant): string {
  const country = typeof a.info.country === 'string' ? a.info.country.toUpperCase() : '';
  if (/^[A-Z]{3}$/.test(country)) return country;
  return REGISTRATION_COUNTRIES.find((c) => c.code === country)?.iso3 ?? '';
}

const html = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/**
 * Takes the applicant's documents from the page's form: type, front, back (two-sided documents), selfie.
 * Each file is JPG, PNG or PDF by content (the selfie an image) and at most 2 MB. Returns null when the
 * applicant was submitted for review, else the message to show.
 */
export async function submitDocuments(
  deps: { db: pg.Pool; credentials: SimulatorCredentials; autoApproveSeconds: number },
  token: string,
  form: MultipartBody,
): Promise<string | null> {
  const applicant = await applicantForToken(deps.db, token);
  if (!applicant) return 'This verification link has expired. Please start again from the exchange.';
  if (!canSubmit(applicant)) return 'Your documents cannot be submitted now.';
  const docType = DOC_TYPES.find((d) => d.value === form.fields.id_doc_type);
  if (!docType) return 'Please choose a document type.';
  const country = /^[A-Z]{3}$/.test(form.fields.country ?? '') ? form.fields.country : undefined;
  const file = (field: string) => form.files.find((f) => f.field === field && f.content.length > 0);
  const front = file('front');
  const back = file('back');
  const selfie = file('selfie');
  if (!front) return 'Please upload your document';
  if (docType.twoSided && !back) return 'Please upload the back of your document';
  if (!selfie) return 'Please upload your selfie';
  const uploads: { sub: string; f: NonNullable<typeof front>; type: string }[] = [
    { sub: 'FRONT_SIDE', f: front, type: docType.value },
    ...(back ? [{ sub: 'BACK_SIDE', f: back, type: docType.value }] : []),
    { sub: '', f: selfie, type: 'SELFIE' },
  ];
  const typed: { sub: string; type: string; fileName: string; content: Buffer; mimeType: string }[] = [];
  for (const u of uploads) {
    if (u.f.truncated) return 'Each file must be at most 2 MB.';
    const mimeType = sniffDocumentType(u.f.content);
    if (!mimeType || (u.type === 'SELFIE' && mimeType === 'application/pdf'))
      return 'Files must be JPG, JPEG, PNG or PDF (the selfie a photo).';
    typed.push({ sub: u.sub, type: u.type, fileName: u.f.fileName, content: u.f.content, mimeType });
  }
  for (const t of typed) {
    await addSimDocument(deps.db, simulatorDocumentKey(deps.credentials), applicant.id, {
      idDocType: t.type,
      idDocSubType: t.sub || undefined,
      country,
      fileName: t.fileName,
      mimeType: t.mimeType,
      content: t.content,
    });
  }
  const result = await actOnApplicant(deps.db, applicant.id, 'submit', deps.autoApproveSeconds);
  return typeof result === 'string' ? 'Your documents cannot be submitted now.' : null;
}

function canSubmit(a: SimApplicant): boolean {
  return a.review_status === 'init' || (a.review_status === 'completed' && a.reject_type === 'RETRY');
}

/** The page for a token: the upload form, or where the review stands. */
export async function renderWebSdkPage(
  db: pg.Pool,
  token: string,
  redirect: string | undefined,
  error: string | null,
  theme: SimTheme = 'dark',
): Promise<{ status: number; html: string }> {
  const applicant = token ? await applicantForToken(db, token) : undefined;
  if (!applicant) {
    return {
      status: 401,
      html: layout(
        theme,
        'Verification link expired',
        '<p data-testid="kyc-sim-expired">This verification link has expired. Please start again from the exchange.</p>',
      ),
    };
  }
  const back = redirect
    ? `<p><a class="button" data-testid="kyc-sim-return" href="${html(redirect)}">Return to the exchange</a></p>`
    : '';
  if (!canSubmit(applicant)) {
    const { title, text } = statusText(applicant);
    return {
      status: 200,
      html: layout(
        theme,
        title,
        `<p data-testid="kyc-sim-status" data-status="${html(applicant.review_status)}">${text}</p>${back}`,
      ),
    };
  }
  const retry =
    applicant.review_status === 'completed'
      ? '<p class="note">Your previous documents could not be accepted. Please submit them again.</p>'
      : '';
  const options = DOC_TYPES.map((d) => `<option value="${d.value}">${html(d.label)}</option>`).join('');
  const form = `${retry}${error ? `<p class="error" role="alert" data-testid="kyc-sim-error">${html(error)}</p>` : ''}
<form method="post" action="/kyc-sim/websdk/submit" enctype="multipart/form-data">
  <input type="hidden" name="access_token" value="${html(token)}">
  ${redirect ? `<input type="hidden" name="redirect_url" value="${html(redirect)}">` : ''}
  <input type="hidden" name="theme" value="${theme}">
  <label>Document type<select name="id_doc_type" data-testid="kyc-sim-doc-type">${options}</select></label>
  <label>Issuing country (ISO 3166 alpha-3)<input name="country" value="${html(applicantCountry(applicant))}" maxlength="3" pattern="[A-Z]{3}" data-testid="kyc-sim-country"></label>
  <label>Front side<input type="file" name="front" accept=".jpg,.jpeg,.png,.pdf,image/jpeg,image/png,application/pdf" data-testid="kyc-sim-front"></label>
  <label>Back side (ID card, driver's licence, military ID)<input type="file" name="back" accept=".jpg,.jpeg,.png,.pdf,image/jpeg,image/png,application/pdf" data-testid="kyc-sim-back"></label>
  <label>Selfie<input type="file" name="selfie" accept="image/jpeg,image/png" capture="user" data-testid="kyc-sim-selfie"></label>
  <p class="note">JPG, JPEG, PNG or PDF, at least 300 dpi, at most 2 MB each.</p>
  <button type="submit" data-testid="kyc-sim-submit">Submit for review</button>
</form>`;
  return { status: 200, html: layout(theme, 'Verify your identity', form) };
}

function statusText(a: SimApplicant): { title: string; text: string } {
  if (a.review_status === 'completed' && a.review_answer === 'GREEN')
    return { title: 'Verified', text: 'Your identity has been verified.' };
  if (a.review_status === 'completed')
    return { title: 'Rejected', text: 'Your verification was rejected. Please contact support.' };
  if (a.review_status === 'onHold')
    return { title: 'Under review', text: 'Your documents are under additional review.' };
  return { title: 'Under review', text: 'Thank you. Your documents are under review.' };
}

const COLOURS: Record<SimTheme, string> = {
  light: 'body{background:#f7f8fa;color:#1a1b1e} main{background:#fff;border-color:#dee2e6}',
  dark:
    'body{background:#1a1b1e;color:#c9c9c9} main{background:#242424;border-color:#424242}' +
    ' select,input{background:#2e2e2e;color:#c9c9c9;border:1px solid #424242}' +
    ' .error{color:#ff8787} .note,.badge{color:#909296}',
};

function layout(theme: SimTheme, title: string, body: string): string {
  return `<!doctype html>
<html lang="en" data-theme="${theme}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="${theme}">
<title>${html(title)} · Identity verification</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;padding:24px;background:#f7f8fa;color:#1a1b1e}
main{max-width:520px;margin:0 auto;background:#fff;border:1px solid #dee2e6;border-radius:8px;padding:24px}
h1{font-size:20px;margin:0 0 16px} label{display:block;margin:0 0 14px;font-size:14px}
select,input{display:block;margin-top:6px;width:100%;box-sizing:border-box;font-size:14px}
button,.button{background:#228be6;color:#fff;border:0;border-radius:4px;padding:10px 16px;font-size:14px;cursor:pointer;text-decoration:none;display:inline-block}
.error{color:#c92a2a}.note{color:#868e96;font-size:13px}.badge{font-size:12px;color:#868e96}
${COLOURS[theme]}
</style></head>
<body><main><div class="badge">Identity verification · simulator</div><h1>${html(title)}</h1>${body}</main></body></html>`;
}
