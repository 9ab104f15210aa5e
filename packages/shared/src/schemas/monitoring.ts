import { z } from 'zod';
import { staffReason } from './admin.ts';
import { peatioPaging } from './paging.ts';

/**
 * The transaction-monitoring rules (issue 33 item 2); each hit opens an alert with one of these codes.
 * - `threshold.single`: one operation worth EUR 15,000.00 or more.
 * - `threshold.linked`: the customer's operations within `AML_LINKED_WINDOW_DAYS` reach EUR 15,000.00 together
 *   (opened on the operation that crosses the line, when none of them reached it alone).
 * - `threshold.identification`: one operation worth EUR 1,000.00 or more by a customer below level 3.
 * - `pattern.rapid_in_out`: withdrawals and outgoing transfers within `WITHDRAW_REVIEW_PASS_THROUGH_MINUTES` take
 *   half or more of what was deposited in that time, in EUR across all currencies.
 * - `territory.high_risk`: a deposit from or a withdrawal or transfer to a service or person in a country of
 *   `AML_HIGH_RISK_COUNTRIES`.
 */
export const AML_RULES = {
  single: 'threshold.single',
  linked: 'threshold.linked',
  identification: 'threshold.identification',
  rapidInOut: 'pattern.rapid_in_out',
  highRiskTerritory: 'territory.high_risk',
} as const;
export type AmlRule = (typeof AML_RULES)[keyof typeof AML_RULES];

/** EUR 15,000.00 in cents: the reporting threshold of one operation or of linked operations. */
export const AML_REPORT_THRESHOLD_CENTS = 1_500_000n;
/** EUR 1,000.00 in cents: the identification threshold of an occasional transaction. */
export const AML_IDENTIFICATION_THRESHOLD_CENTS = 100_000n;
/** Business hours from the suspicion to the report's deadline (AML policy). */
export const AML_REPORT_BUSINESS_HOURS = 3;
/** The longest suspension of an operation, in business days (AML policy). */
export const AML_MAX_SUSPENSION_DAYS = 10;

/** Error codes of the console's monitoring routes. */
export const MONITORING_ERRORS = {
  /** No such alert, or it is no longer open (422). */
  alertNotOpen: 'admin.monitoring.alert_not_open',
  /** No such report (404). */
  reportNotFound: 'admin.monitoring.report_not_found',
  /** The withdrawal is not the report's customer's, or is past the point where it can be held (422). */
  notSuspendable: 'admin.monitoring.not_suspendable',
  /** The withdrawal is suspended for a report: it cannot be approved until the suspension ends (409). */
  suspended: 'admin.monitoring.withdrawal_suspended',
  /** No such customer (404). */
  userNotFound: 'admin.monitoring.user_not_found',
  /** `pep_left_office` is not a date (YYYY-MM-DD) (422). */
  invalidDate: 'admin.monitoring.invalid_date',
} as const;

/** `GET /admin/monitoring/alerts`. */
export const monitoringAlertsQuery = z.object({
  state: z.enum(['open', 'closed', 'escalated', 'all']).default('open'),
  ...peatioPaging,
});

/** `POST /admin/monitoring/alerts/:id/close`: closed as a false positive, with the reason. */
export const closeAlertSchema = z.object({ reason: staffReason });

/** `POST /admin/monitoring/alerts/:id/escalate`: the report's narrative (why it is suspicious). */
export const escalateAlertSchema = z.object({ narrative: staffReason });

/** `POST /admin/monitoring/reports/:id/suspend`: holds a pending withdrawal of the report's customer. */
export const suspendWithdrawalSchema = z.object({
  withdrawal_id: z.number().int().positive(),
  business_days: z.number().int().min(1).max(AML_MAX_SUSPENSION_DAYS).default(AML_MAX_SUSPENSION_DAYS),
});

/** The risk classes of the AML policy. */
export const RISK_CLASSES = ['low', 'average', 'high'] as const;
export type RiskClass = (typeof RISK_CLASSES)[number];

/** `PUT /admin/monitoring/risk/:uid`: compliance sets the class (with the reason) and the PEP flag. */
export const setRiskClassSchema = z.object({
  class: z.enum(RISK_CLASSES),
  reason: staffReason,
  pep: z.boolean().default(false),
  pep_left_office: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, MONITORING_ERRORS.invalidDate)
    .nullable()
    .default(null),
});

/** An alert in the console. */
export const monitoringAlertResponse = z.object({
  id: z.number().int(),
  uid: z.string(),
  email: z.string(),
  rule: z.string(),
  state: z.enum(['open', 'closed', 'escalated']),
  /** The hit's value in EUR (the window's total for linked operations); null when unvalued. */
  eur: z.string().nullable(),
  facts: z.record(z.string(), z.unknown()),
  operation_ids: z.array(z.number().int()),
  reason: z.string().nullable(),
  report_id: z.number().int().nullable(),
  created_at: z.string(),
  decided_at: z.string().nullable(),
});

/** A report to the financial intelligence unit, with the policy's clock. */
export const monitoringReportResponse = z.object({
  id: z.number().int(),
  alert_id: z.number().int(),
  uid: z.string(),
  email: z.string(),
  narrative: z.string(),
  suspicion_at: z.string(),
  /** Three business hours after the suspicion (Europe/Warsaw business days). */
  due_at: z.string(),
  due_in_ms: z.number(),
  overdue: z.boolean(),
  exported_at: z.string().nullable(),
  suspensions: z.array(
    z.object({ withdrawal_id: z.number().int(), until: z.string(), lifted_at: z.string().nullable() }),
  ),
});

/** A customer's risk class in the console. */
export const riskProfileResponse = z.object({
  uid: z.string(),
  email: z.string(),
  class: z.enum(RISK_CLASSES),
  reasons: z.array(z.string()),
  source: z.enum(['rules', 'staff']),
  note: z.string().nullable(),
  review_due: z.string(),
  overdue: z.boolean(),
  pep: z.boolean(),
  pep_left_office: z.string().nullable(),
});
export type RiskProfileEntity = z.infer<typeof riskProfileResponse>;
export type MonitoringAlertEntity = z.infer<typeof monitoringAlertResponse>;
export type MonitoringReportEntity = z.infer<typeof monitoringReportResponse>;

/** `GET /admin/monitoring/reports/:id/export` (JSON; `format=xml` gives the same tree as XML). */
export const monitoringReportExportResponse = z.object({
  report: z.object({
    id: z.number().int(),
    suspicion_at: z.string(),
    due_at: z.string(),
    narrative: z.string(),
    exported_at: z.string(),
    exported_by: z.string(),
  }),
  subject: z.object({
    uid: z.string(),
    email: z.string(),
    level: z.number().int(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    dob: z.string().nullable(),
    country: z.string().nullable(),
    address: z.string().nullable(),
    city: z.string().nullable(),
    postcode: z.string().nullable(),
  }),
  alert: z.object({
    id: z.number().int(),
    rule: z.string(),
    eur: z.string().nullable(),
    facts: z.record(z.string(), z.unknown()),
    created_at: z.string(),
  }),
  operations: z.array(
    z.object({
      id: z.number().int(),
      kind: z.string(),
      /** `<table>:<id>` of the operation (deposit, withdrawal, swap, card_topup). */
      reference: z.string(),
      currency: z.string(),
      amount: z.string(),
      eur: z.string().nullable(),
      counterparty_country: z.string().nullable(),
      occurred_at: z.string(),
    }),
  ),
  suspensions: z.array(
    z.object({ withdrawal_id: z.number().int(), until: z.string(), lifted_at: z.string().nullable() }),
  ),
});
export type MonitoringReportExport = z.infer<typeof monitoringReportExportResponse>;
