import { formatUnits, type MonitoringReportExport } from '@exchange/shared';
import type pg from 'pg';
import type { Staff } from '../../admin/access.ts';
import { recordStaffAction } from '../../admin/trail.ts';
import { isoSql } from '../../identity/users-repository.ts';
import { reportView } from './service.ts';

/** The data of a report to the financial intelligence unit, as exported (JSON, or the same tree as XML). */
export type ReportExport = MonitoringReportExport;

/** Assembles a report's data and marks it exported (in the trail). */
export async function exportReport(db: pg.Pool, staff: Staff, id: number, now: Date): Promise<ReportExport> {
  const view = await reportView(db, staff, id, now);
  const exportedAt = now;
  const base = (
    await db.query(
      `select u.uid, u.email, u.level, p.first_name, p.last_name, p.dob::text, p.country, p.address, p.city,
         p.postcode, a.id::int as alert_id, a.rule, a.eur_cents::text, a.facts, a.operation_ids::int[] as ops,
         ${isoSql('a.created_at')} as alert_at
       from aml_reports r join aml_alerts a on a.id = r.alert_id join users u on u.id = r.user_id
         left join lateral (select * from profiles where user_id = u.id order by id desc limit 1) p on true
       where r.id = $1`,
      [id],
    )
  ).rows[0];
  const ops = await db.query(
    `select id::int, kind, source || ':' || source_id as reference, currency_id, trim_scale(amount)::text as amount,
       eur_cents::text, counterparty_country, ${isoSql('occurred_at')} as occurred_at
     from aml_operations where id = any($1) order by occurred_at, id`,
    [base.ops],
  );
  await db.query(`update aml_reports set exported_at = $2 where id = $1`, [id, exportedAt]);
  await recordStaffAction(db, staff, 'monitoring.report.export', base.uid, { after: { report: id } });
  const eur = (cents: string | null) => (cents === null ? null : formatUnits(BigInt(cents), 2));
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
      eur: eur(base.eur_cents),
      facts: base.facts,
      created_at: base.alert_at,
    },
    operations: ops.rows.map((o) => ({
      id: o.id,
      kind: o.kind,
      reference: o.reference,
      currency: o.currency_id,
      amount: o.amount,
      eur: eur(o.eur_cents),
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
