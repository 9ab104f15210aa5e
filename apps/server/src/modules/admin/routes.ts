import {
  ADMIN_ERRORS,
  adjustmentResponse,
  adminActionsQuery,
  adminUserActionSchema,
  adminUserDetailResponse,
  adminUserQuery,
  adminUserRowResponse,
  cardHolderDecisionResponse,
  cardHolderQueueItemResponse,
  cardHolderReviewSchema,
  componentHealthResponse,
  decideAdjustmentSchema,
  kycDecisionResponse,
  kycQueueItemResponse,
  kycReviewSchema,
  MONITORING_ERRORS,
  proposeAdjustmentSchema,
  STAFF_PERMISSIONS,
  type StaffPermission,
  sessionsEndedResponse,
  staffActionResponse,
  staffMay,
  staffMeResponse,
  stepUpResponse,
  stepUpSchema,
  twoFactorResetResponse,
  userStateResponse,
} from '@exchange/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { dateOf } from '../../clock.ts';
import { requireAuth } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { docs } from '../../http/openapi.ts';
import { paged } from '../../http/paging.ts';
import { decrypt } from '../identity/crypto.ts';
import { consumeTotp } from '../identity/totp.ts';
import { OWN_ACCOUNT_SQLSTATE, recordStepUp, requireStaff, type Staff, stepUpUntil } from './access.ts';
import { decideAdjustment, listAdjustments, proposeAdjustment } from './adjustments.ts';
import { cardHolderDocument, cardHolderQueue, reviewCardHolder } from './card-review.ts';
import { endUserSessions, resetTwoFactor, searchUsers, setUserLocked, userDetail } from './customers.ts';
import type { AdminRouteDeps } from './deps.ts';
import { componentHealth } from './health.ts';
import { kycDocument, kycQueue, reviewApplicant } from './kyc-review.ts';
import { adminLedgerRoutes } from './ledger-routes.ts';
import { adminMarketRoutes } from './markets-routes.ts';
import { adminStatementRoutes } from './statement-routes.ts';
import { listStaffActions, recordStaffAction } from './trail.ts';
import { adminWithdrawalRoutes } from './withdrawals-routes.ts';

/** SQLSTATE of the database's refusal to approve a withdrawal suspended for a report (migration 0047). */
const AML_SUSPENDED_SQLSTATE = 'XCA01';
const uidParam = z.object({ uid: z.string().regex(/^ID[0-9A-F]{10}$/, ADMIN_ERRORS.userNotFound) });
const idParam = z.object({ id: z.coerce.number().int().positive() });
const documentParams = uidParam.extend({ id: z.coerce.number().int().positive() });
const adjustmentsQuery = z.object({
  state: z.enum(['proposed', 'pending', 'accepted', 'rejected']).optional(),
});

/** The staff check a console section runs first in each handler: the permission, two-factor and step-up. */
export type StaffCheck = (request: FastifyRequest, permission: StaffPermission) => Promise<Staff>;

/**
 * Other modules' parts of the console (bank transfers, closures, sanctions, monitoring, custody). The app registers
 * them in this scope, so they share its authentication hook and error handler, without this module importing
 * another module's route file.
 */
export interface AdminSections {
  /** Registered after the adjustments; each checks its permission with the `staff` check it is given. */
  guarded: ((app: FastifyInstance, staff: StaffCheck) => void)[];
  /** Registered after this module's market, ledger and statement routes. */
  more: ((app: FastifyInstance) => Promise<void>)[];
}

/**
 * The operator console's API (`/api/v2/admin`). Every route checks on the server: a session of a staff user
 * whose role holds the route's permission, two-factor on, and (except `me` and `step_up`) a fresh authenticator
 * code. Every change is written to the append-only staff trail. No staff member acts on their own account.
 */
export async function adminRoutes(
  app: FastifyInstance,
  deps: AdminRouteDeps,
  sections: AdminSections,
): Promise<void> {
  app.addHook('onRequest', requireAuth(deps.users, deps.sessions));
  // The database refused a decision on the staff member's own account that the service let through (a bug, so
  // logged): answered as the service's own refusal. Every other error goes on to the app's handler.
  app.setErrorHandler((err: Error & { code?: unknown }, request, reply) => {
    // A suspended withdrawal's approval, refused by the database (migration 0047) whichever path tried it.
    if (err.code === AML_SUSPENDED_SQLSTATE)
      return reply.status(409).send({ errors: [MONITORING_ERRORS.suspended] });
    if (err.code !== OWN_ACCOUNT_SQLSTATE) throw err;
    request.log.warn({ err }, 'the database refused a staff action on their own account');
    return reply.status(403).send({ errors: [ADMIN_ERRORS.ownAccount] });
  });
  const staff = (
    request: Parameters<typeof requireStaff>[1],
    permission: StaffPermission | null,
    stepUp = true,
  ) => requireStaff(deps, request, permission, stepUp);

  app.get(
    '/me',
    docs('The signed-in staff member, role, permissions and step-up', { response: staffMeResponse }),
    async (request) => {
      const who = await staff(request, null, false);
      const permissions = (Object.keys(STAFF_PERMISSIONS) as StaffPermission[]).filter((p) =>
        staffMay(who.user.role, p),
      );
      return {
        uid: who.user.uid,
        email: who.user.email,
        role: who.user.role,
        permissions,
        step_up_until: await stepUpUntil(deps, who.sessionId),
      };
    },
  );

  app.post(
    '/step_up',
    docs('Step up with an authenticator code (valid 5 minutes)', {
      body: stepUpSchema,
      response: stepUpResponse,
    }),
    async (request) => {
      const who = await staff(request, null, false);
      const { otp_code } = stepUpSchema.parse(request.body ?? {});
      const check = await consumeTotp(
        deps,
        who.user.id,
        decrypt(deps.keys, who.user.otp_secret_enc ?? ''),
        otp_code,
      );
      if (check !== 'ok')
        throw new AppError(422, [check === 'used' ? ADMIN_ERRORS.codeUsed : ADMIN_ERRORS.invalidCode]);
      await recordStepUp(deps, who.sessionId);
      await recordStaffAction(deps.db, who, 'staff.step_up', null);
      return { step_up_until: await stepUpUntil(deps, who.sessionId) };
    },
  );

  app.get(
    '/users',
    docs('Search users by email, phone or uid', {
      query: adminUserQuery,
      response: z.array(adminUserRowResponse),
      paged: true,
    }),
    async (request, reply) => {
      await staff(request, 'users.read');
      const q = adminUserQuery.parse(request.query);
      const { items, total } = await searchUsers(deps.db, q);
      paged(reply, total, q.page, q.limit);
      return items;
    },
  );

  app.get(
    '/users/:uid',
    docs('One user, as support sees them', { params: uidParam, response: adminUserDetailResponse }),
    async (request) => {
      await staff(request, 'users.read');
      return userDetail(deps.db, uidParam.parse(request.params).uid, dateOf(deps.clock));
    },
  );

  for (const lock of [true, false]) {
    app.post(
      `/users/:uid/${lock ? 'lock' : 'unlock'}`,
      docs(lock ? 'Lock an account (its sessions end)' : 'Unlock an account', {
        params: uidParam,
        body: adminUserActionSchema,
        response: userStateResponse,
      }),
      async (request) => {
        const who = await staff(request, 'users.manage');
        const { reason } = adminUserActionSchema.parse(request.body ?? {});
        return setUserLocked(deps.db, deps.sessions, who, uidParam.parse(request.params).uid, lock, reason);
      },
    );
  }

  app.post(
    '/users/:uid/reset_2fa',
    docs("Turn a user's two-factor off after an identity check (starts the withdrawal hold)", {
      params: uidParam,
      body: adminUserActionSchema,
      response: twoFactorResetResponse,
    }),
    async (request) => {
      const who = await staff(request, 'users.manage');
      const { reason } = adminUserActionSchema.parse(request.body ?? {});
      const messengers = { mail: deps.mail, sms: deps.sms };
      return resetTwoFactor(
        deps.db,
        deps.sessions,
        messengers,
        who,
        uidParam.parse(request.params).uid,
        reason,
      );
    },
  );

  app.delete(
    '/users/:uid/sessions',
    docs("End all of a user's sessions", { params: uidParam, response: sessionsEndedResponse }),
    async (request) => {
      const who = await staff(request, 'users.manage');
      return endUserSessions(deps.db, deps.sessions, who, uidParam.parse(request.params).uid);
    },
  );

  app.get(
    '/kyc',
    docs('Applicants waiting for an identity review', { response: z.array(kycQueueItemResponse) }),
    async (request) => {
      await staff(request, 'kyc.review');
      return kycQueue(deps.db, deps.kycSimulator?.desk);
    },
  );

  app.get(
    '/kyc/:uid/documents/:id',
    docs("An applicant's document image", { params: documentParams, content: 'file' }),
    async (request, reply) => {
      await staff(request, 'kyc.review');
      const { uid, id } = documentParams.parse(request.params);
      const document = await kycDocument(deps.kycSimulator?.desk, uid, id);
      // Identity documents: for this staff member's eyes only, never kept by a browser or a proxy.
      reply.header('cache-control', 'no-store, private').header('content-disposition', 'inline');
      return reply.type(document.mimeType).send(document.content);
    },
  );

  app.post(
    '/kyc/:uid/review',
    docs('Approve, reject or ask to retry an applicant', {
      params: uidParam,
      body: kycReviewSchema,
      response: kycDecisionResponse,
    }),
    async (request) => {
      const who = await staff(request, 'kyc.review');
      if (deps.config.kyc.provider !== 'simulator') throw new AppError(422, [ADMIN_ERRORS.kycNotReviewable]);
      const { decision, reason, kind } = kycReviewSchema.parse(request.body ?? {});
      return reviewApplicant(
        deps.kycSimulator?.desk,
        who,
        uidParam.parse(request.params).uid,
        decision,
        reason,
        kind,
      );
    },
  );

  app.get(
    '/card_holders',
    docs('Card holders waiting for the issuer review', { response: z.array(cardHolderQueueItemResponse) }),
    async (request) => {
      await staff(request, 'kyc.review');
      return cardHolderQueue(deps.db);
    },
  );

  app.get(
    '/card_holders/:uid/documents/:id',
    docs("A card holder's document image", { params: documentParams, content: 'file' }),
    async (request, reply) => {
      await staff(request, 'kyc.review');
      const { uid, id } = documentParams.parse(request.params);
      const document = await cardHolderDocument(deps.db, deps.keys, uid, id);
      reply.header('cache-control', 'no-store, private').header('content-disposition', 'inline');
      return reply.type(document.mimeType).send(document.content);
    },
  );

  app.post(
    '/card_holders/:uid/review',
    docs('Approve a card holder, reject them, or ask for new documents', {
      params: uidParam,
      body: cardHolderReviewSchema,
      response: cardHolderDecisionResponse,
    }),
    async (request) => {
      const who = await staff(request, 'kyc.review');
      if (deps.config.card.issuer !== 'simulator')
        throw new AppError(422, [ADMIN_ERRORS.cardHolderNotReviewable]);
      const { decision, reason } = cardHolderReviewSchema.parse(request.body ?? {});
      return reviewCardHolder(
        deps.db,
        deps.cardSimulator?.desk,
        who,
        uidParam.parse(request.params).uid,
        decision,
        reason,
      );
    },
  );

  app.get(
    '/adjustments',
    docs('Adjustments proposed by staff', { query: adjustmentsQuery, response: z.array(adjustmentResponse) }),
    async (request) => {
      await staff(request, 'adjustments.propose');
      return listAdjustments(deps.db, adjustmentsQuery.parse(request.query).state);
    },
  );

  app.post(
    '/adjustments',
    docs('Propose a credit or debit (four eyes)', {
      body: proposeAdjustmentSchema,
      response: adjustmentResponse,
      status: 201,
    }),
    async (request, reply) => {
      const who = await staff(request, 'adjustments.propose');
      return reply
        .status(201)
        .send(await proposeAdjustment(deps.db, who, proposeAdjustmentSchema.parse(request.body ?? {})));
    },
  );

  for (const approve of [true, false]) {
    app.post(
      `/adjustments/:id/${approve ? 'approve' : 'reject'}`,
      docs(approve ? "Approve another staff member's proposal" : 'Reject a proposal', {
        params: idParam,
        body: decideAdjustmentSchema,
        response: adjustmentResponse,
      }),
      async (request) => {
        const who = await staff(request, 'adjustments.approve');
        const { reason } = decideAdjustmentSchema.parse(request.body ?? {});
        return decideAdjustment(
          deps.db,
          deps.core,
          who,
          idParam.parse(request.params).id,
          approve,
          reason,
          dateOf(deps.clock),
        );
      },
    );
  }

  const staffCheck: StaffCheck = (request, permission) => staff(request, permission);
  adminWithdrawalRoutes(app, deps, staffCheck);
  for (const section of sections.guarded) section(app, staffCheck);

  app.get(
    '/health',
    docs('The health of each component, checked now', { response: z.array(componentHealthResponse) }),
    async (request) => {
      await staff(request, 'metrics.read');
      return componentHealth(deps);
    },
  );

  app.get(
    '/metrics',
    docs('Prometheus metrics of this process (text format)', { content: 'text' }),
    async (request, reply) => {
      await staff(request, 'metrics.read');
      return reply.type(app.metrics.contentType).send(await app.metrics.metrics());
    },
  );

  await adminMarketRoutes(app, deps);
  await adminLedgerRoutes(app, deps);
  await adminStatementRoutes(app, deps);
  for (const section of sections.more) await section(app);

  app.get(
    '/actions',
    docs('The staff trail', {
      query: adminActionsQuery,
      response: z.array(staffActionResponse),
      paged: true,
    }),
    async (request, reply) => {
      await staff(request, 'trail.read');
      const q = adminActionsQuery.parse(request.query);
      const { items, total } = await listStaffActions(deps.db, q);
      paged(reply, total, q.page, q.limit);
      return items;
    },
  );
}
