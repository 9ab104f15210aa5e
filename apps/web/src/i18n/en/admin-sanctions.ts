/** Sanctions screening: the console's tab (/admin) and the codes of the screening's refusals. */
export const adminSanctions = {
  'account.withdraw.sanctions_review':
    'Withdrawals and transfers are paused while our compliance team reviews your account. Please contact support.',
  'admin.sanctions.hit_not_found': 'No such screening hit.',
  'admin.sanctions.already_decided': 'This hit was decided already.',

  'admin.tab.sanctions': 'Sanctions',
  'admin.sanctions.title': 'Sanctions screening hits',
  'admin.sanctions.list':
    'List {{file}} (generated {{generated}}): {{entities}} entries, {{names}} names, imported {{imported}}, SHA-256 {{sha}}…; hits from a score of {{threshold}}',
  'admin.sanctions.noList': 'No sanctions list is imported: run `npm run cli -- sanctions import <file>`.',
  'admin.sanctions.empty': 'No hit here.',
  'admin.sanctions.state.open': 'Open',
  'admin.sanctions.state.false_positive': 'False positive',
  'admin.sanctions.state.confirmed': 'Confirmed',
  'admin.sanctions.state.all': 'All',
  'admin.sanctions.score': 'Score {{score}}',
  'admin.sanctions.kind.customer': 'Customer',
  'admin.sanctions.kind.company': 'Company',
  'admin.sanctions.kind.representative': 'Owner or representative',
  'admin.sanctions.kind.beneficiary': 'Beneficiary',
  'admin.sanctions.matched': '{{kind}}: “{{name}}”',
  'admin.sanctions.entry': 'matched “{{name}}” ({{type}}, {{reference}}, {{regulation}})',
  'admin.sanctions.reason': 'Reason (for the trail)',
  'admin.sanctions.falsePositive': 'False positive: unfreeze',
  'admin.sanctions.confirm': 'Confirmed: keep frozen',
  'admin.sanctions.decided': 'Decided by {{by}} at {{at}}: {{reason}}',
};
