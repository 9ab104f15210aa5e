import { MONITORING_ERRORS, type MonitoringReportExport } from '@exchange/shared';
import type pg from 'pg';
import { AppError } from '../../../http/errors.ts';
import type { Staff } from '../../admin/access.ts';
import { recordStaffAction } from '../../admin/trail.ts';
import { markReportExported, reportOperations, reportSubject } from './report-repository.ts';
import { eurOfCents, reportView } from './service.ts';

/** The data of a report to the financial intelligence unit, as exported (JSON, or the same tree as XML). */
export type ReportExport = MonitoringReportExport;

/** Assembles a report's data and marks it exported (in the trail). */
export async function exportReport(db: pg.Pool, staff: Staff, id: number, now: Date): Promise<ReportExport> {
  const view = await reportView(db, staff, id, now);
  const exportedAt = now;
  const base = await reportSubject(db, id);
  if (!base) throw new AppError(404, [MONITORING_ERRORS.reportNotFound]);
  const ops = await reportOperations(db, base.ops);
  await markReportExported(db, id, exportedAt);
  await recordStaffAction(db, staff, 'monitoring.report.export', base.uid, { after: { report: id } });
  return {
    report: {
      id,
      suspicion_at: view.suspicion_at,
      due_at: view.due_at,
      narrative: view.narrative,
      exported_at: exportedAt.toISOString(),
      exported_by: staff.user.email,
    },
    subject: {
      uid: base.uid,
      email: base.email,
      level: Number(base.level),
      first_name: base.first_name,
      last_name: base.last_name,
      dob: base.dob,
      country: base.country,
      address: base.address,
      city: base.city,
      postcode: base.postcode,
    },
    alert: {
      id: base.alert_id,
      rule: base.rule,
      eur: eurOfCents(base.eur_cents),
      facts: base.facts,
      created_at: base.alert_at,
    },
    operations: ops.map((o) => ({
      id: o.id,
      kind: o.kind,
      reference: o.reference,
      currency: o.currency_id,
      amount: o.amount,
      eur: eurOfCents(o.eur_cents),
      counterparty_country: o.counterparty_country,
      occurred_at: o.occurred_at,
    })),
    suspensions: view.suspensions,
  };
}

const xmlText = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function element(name: string, value: unknown, indent: string): string {
  if (value === null || value === undefined) return `${indent}<${name}/>`;
  if (Array.isArray(value)) {
    const item = name.endsWith('s') ? name.slice(0, -1) : 'item';
    const inner = value.map((v) => element(item, v, `${indent}  `)).join('\n');
    return `${indent}<${name}>\n${inner}\n${indent}</${name}>`;
  }
  if (typeof value === 'object') {
    const inner = Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => element(k, v, `${indent}  `))
      .join('\n');
    return `${indent}<${name}>\n${inner}\n${indent}</${name}>`;
  }
  return `${indent}<${name}>${xmlText(String(value))}</${name}>`;
}

/** The export as XML: the same tree as the JSON, one element per field (lists of singular-named items). */
export function reportXml(data: ReportExport): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${element('suspicious_activity_report', data, '')}\n`;
}
