import { API, beneficiaryRemovalSchema, beneficiaryRemovedResponse } from '@exchange/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { AppError } from '../../http/errors.ts';
import { docs } from '../../http/openapi.ts';
import { refuseForeignPages } from '../../http/same-origin.ts';
import { confirmRemoval, REMOVAL_PATH, type RemovalSubject, removalSubject } from './beneficiary-removal.ts';
import type { WalletRouteDeps } from './deps.ts';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/** A page of its own (no script, no style: the API's `default-src 'none'` policy holds). */
function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

const describe = (s: RemovalSubject) =>
  `<p>"${escapeHtml(s.name)}" (${escapeHtml(s.currency.toUpperCase())}, ${escapeHtml(s.blockchain_key)})</p><p><code>${escapeHtml(s.address)}</code></p>`;

/** A browser's form post (the confirmation page's button) gets a page; a program's JSON post gets JSON. */
const fromForm = (request: FastifyRequest) =>
  (request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');

/**
 * A page. Its referrer policy is `same-origin`, not the API's `no-referrer`: under `no-referrer` the button's
 * form post would carry `Origin: null`, which the guard against other sites' pages refuses.
 */
const html = (reply: FastifyReply, status: number, text: string) =>
  reply.status(status).header('referrer-policy', 'same-origin').type('text/html; charset=utf-8').send(text);

/**
 * BASEAPP_COMPAT: the mailed link that confirms removing a beneficiary (see beneficiary-removal.ts). The link
 * opens a page that shows the address and a button: opening it changes nothing (mail scanners open links), the
 * button's POST removes the address. The token is the proof: no session is needed, the owner may open the mail
 * anywhere. Pages of other sites may not post here.
 */
export async function beneficiaryRemovalRoutes(app: FastifyInstance, deps: WalletRouteDeps): Promise<void> {
  const removalDeps = {
    db: deps.db,
    keys: deps.keys,
    mail: deps.mail,
    chains: deps.wallet.chains,
    clock: deps.clock,
  };
  const limit = { config: { rateLimit: { max: 20, timeWindow: '1 minute' } } };
  app.get(
    REMOVAL_PATH,
    docs(
      'The page of a beneficiary removal link (BASEAPP_COMPAT): shows the address, changes nothing',
      { query: beneficiaryRemovalSchema, content: 'html', htmlErrors: true },
      limit,
    ),
    async (request, reply) => {
      const parsed = beneficiaryRemovalSchema.safeParse(request.query);
      const subject = parsed.success
        ? await removalSubject(removalDeps, parsed.data.token).catch(() => undefined)
        : undefined;
      if (!subject || !parsed.success)
        return html(
          reply,
          422,
          page('Link invalid or expired', '<p>This removal link is invalid, used or expired.</p>'),
        );
      return html(
        reply,
        200,
        page(
          'Remove this withdrawal address?',
          `${describe(subject)}<form method="post" action="${API.peatio}${REMOVAL_PATH}"><input type="hidden" name="token" value="${escapeHtml(parsed.data.token)}"><button type="submit">Remove address</button></form>`,
        ),
      );
    },
  );
  app.post(
    REMOVAL_PATH,
    docs(
      'Confirm a beneficiary removal with the mailed token (BASEAPP_COMPAT); a form post gets a page',
      { body: beneficiaryRemovalSchema, response: beneficiaryRemovedResponse, errors: [403] },
      { ...limit, onRequest: refuseForeignPages(deps.config.publicUrl) },
    ),
    async (request, reply) => {
      const form = fromForm(request);
      try {
        const { token } = beneficiaryRemovalSchema.parse(request.body ?? {});
        const subject = await confirmRemoval(removalDeps, token, {
          ip: request.ip,
          userAgent: request.headers['user-agent'] ?? null,
        });
        if (form) return html(reply, 200, page('Withdrawal address removed', describe(subject)));
        return { id: subject.id, removed: true };
      } catch (err) {
        if (!form || !(err instanceof AppError || err instanceof ZodError)) throw err;
        const status = err instanceof AppError ? err.status : 422;
        return html(
          reply,
          status,
          page('Link invalid or expired', '<p>This removal link is invalid, used or expired.</p>'),
        );
      }
    },
  );
}
