import {
  closeAlertSchema,
  escalateAlertSchema,
  monitoringAlertResponse,
  monitoringAlertsQuery,
  monitoringReportExportResponse,
  monitoringReportResponse,
  riskProfileResponse,
  type StaffPermission,
  setRiskClassSchema,
  suspendWithdrawalSchema,
} from '@exchange/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { dateOf } from '../../../clock.ts';
import { docs } from '../../../http/openapi.ts';
import { paged } from '../../../http/paging.ts';
import type { Staff } from '../../admin/access.ts';
import type { ComplianceRouteDeps } from '../deps.ts';
import { exportReport, reportXml } from './export.ts';
import { userIdByUid } from './repository.ts';
import { assessRisk, listRiskProfiles, setRiskClass } from './risk.ts';
import { closeAlert, escalateAlert, listAlerts, reportView, suspendWithdrawal } from './service.ts';

const idParam = z.object({ id: z.coerce.number().int().positive() });
const uidParam = z.object({ uid: z.string().regex(/^ID[0-9A-F]{10}$/) });
const exportQuery = z.object({ format: z.enum(['json', 'xml']).default('json') });
const riskQuery = z.object({ overdue: z.enum(['true', 'false']).default('false') });
const PERMISSION: StaffPermission = 'monitoring.review';

/**
 * The console's transaction monitoring (compliance): alerts, closing one as a false positive, escalating one to a
 * report to the financial intelligence unit (with the policy's clock), suspending the customer's pending
 * withdrawal, exporting the report, and the customers' risk classes with the overdue reviews.
 */
export function adminMonitoringRoutes(
  app: FastifyInstance,
  deps: ComplianceRouteDeps,
  staff: (request: FastifyRequest, permission: StaffPermission) => Promise<Staff>,
): void {
  const highRisk = deps.config.aml.highRiskCountries;
  const reassess = async (uid: string) => {
    const userId = await userIdByUid(deps.db, uid);
    if (userId !== undefined) await assessRisk(deps.db, userId, highRisk, dateOf(deps.clock));
  };

  app.get(
    '/monitoring/alerts',
    docs('Transaction-monitoring alerts (open by default), newest first', {
      query: monitoringAlertsQuery,
      response: z.array(monitoringAlertResponse),
      paged: true,
    }),
    async (request, reply) => {
      await staff(request, PERMISSION);
      const q = monitoringAlertsQuery.parse(request.query);
      const { items, total } = await listAlerts(deps.db, q);
      paged(reply, total, q.page, q.limit);
      return items;
    },
  );

  app.post(
    '/monitoring/alerts/:id/close',
    docs('Close an open alert as a false positive, with the reason', {
      params: idParam,
      body: closeAlertSchema,
      response: monitoringAlertResponse,
    }),
    async (request) => {
      const who = await staff(request, PERMISSION);
      const { reason } = closeAlertSchema.parse(request.body ?? {});
      const alert = await closeAlert(
        deps.db,
        who,
        idParam.parse(request.params).id,
        reason,
        dateOf(deps.clock),
      );
      await reassess(alert.uid);
      return alert;
    },
  );

  app.post(
    '/monitoring/alerts/:id/escalate',
    docs('Escalate an open alert to a report (due three business hours from now)', {
      params: idParam,
      body: escalateAlertSchema,
      response: monitoringReportResponse,
      status: 201,
    }),
    async (request, reply) => {
      const who = await staff(request, PERMISSION);
      const { narrative } = escalateAlertSchema.parse(request.body ?? {});
      const report = await escalateAlert(
        deps.db,
        who,
        idParam.parse(request.params).id,
        narrative,
        dateOf(deps.clock),
      );
      await reassess(report.uid);
      return reply.status(201).send(report);
    },
  );

  app.get(
    '/monitoring/reports/:id',
    docs('A report with its deadline and suspensions', {
      params: idParam,
      response: monitoringReportResponse,
    }),
    async (request) => {
      const who = await staff(request, PERMISSION);
      return reportView(deps.db, who, idParam.parse(request.params).id, dateOf(deps.clock));
    },
  );

  app.post(
    '/monitoring/reports/:id/suspend',
    docs("Suspend a pending withdrawal of the report's customer (up to 10 business days)", {
      params: idParam,
      body: suspendWithdrawalSchema,
      response: monitoringReportResponse,
    }),
    async (request) => {
      const who = await staff(request, PERMISSION);
      const body = suspendWithdrawalSchema.parse(request.body ?? {});
      const id = idParam.parse(request.params).id;
      return suspendWithdrawal(deps.db, who, id, body.withdrawal_id, body.business_days, dateOf(deps.clock));
    },
  );

  app.get(
    '/monitoring/reports/:id/export',
    docs("The report's data for the financial intelligence unit, as JSON or XML", {
      params: idParam,
      query: exportQuery,
      response: monitoringReportExportResponse,
      description:
        'With `format=xml`, the same tree as XML (`application/xml`, root `suspicious_activity_report`).',
    }),
    async (request, reply) => {
      const who = await staff(request, PERMISSION);
      const { format } = exportQuery.parse(request.query);
      const id = idParam.parse(request.params).id;
      const data = await exportReport(deps.db, who, id, dateOf(deps.clock));
      reply.header('cache-control', 'no-store, private');
      reply.header('content-disposition', `attachment; filename="report-${id}.${format}"`);
      if (format === 'xml') return reply.type('application/xml; charset=utf-8').send(reportXml(data));
      return data;
    },
  );

  app.get(
    '/monitoring/risk',
    docs('Risk profiles by review due date (only the overdue ones with overdue=true)', {
      query: riskQuery,
      response: z.array(riskProfileResponse),
    }),
    async (request) => {
      await staff(request, PERMISSION);
      return listRiskProfiles(deps.db, riskQuery.parse(request.query).overdue === 'true', dateOf(deps.clock));
    },
  );

  app.put(
    '/monitoring/risk/:uid',
    docs("Set a customer's risk class (with the reason) and PEP status: a review, due again in a year", {
      params: uidParam,
      body: setRiskClassSchema,
      response: riskProfileResponse,
    }),
    async (request) => {
      const who = await staff(request, PERMISSION);
      const input = setRiskClassSchema.parse(request.body ?? {});
      return setRiskClass(deps.db, who, uidParam.parse(request.params).uid, input, dateOf(deps.clock));
    },
  );
}
