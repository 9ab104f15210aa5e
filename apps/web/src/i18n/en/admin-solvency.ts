/** Proof of solvency: the operator console's tab (/admin), the customers' proof panel and its codes. */
export const adminSolvency = {
  'solvency.snapshot.not_found': 'No proof of liabilities has been published yet.',
  'solvency.proof.not_in_snapshot': 'Your account had no balance when the latest proof was published.',
  'solvency.snapshot.invalid_id': 'Unknown snapshot.',

  'admin.tab.solvency': 'Solvency',
  'admin.solvency.at': 'Read at {{time}}',
  'admin.solvency.download': 'Download CSV',
  'admin.solvency.currency': 'Currency',
  'admin.solvency.deposit': 'Deposit addresses',
  'admin.solvency.hot': 'Hot wallet',
  'admin.solvency.cold': 'Cold',
  'admin.solvency.onChain': 'On chain',
  'admin.solvency.liabilities': 'Owed to customers',
  'admin.solvency.surplus': 'Surplus',
  'admin.solvency.status': 'Status',
  'admin.solvency.solvent': 'Solvent',
  'admin.solvency.insolvent': 'Insolvent',
  'admin.solvency.unchecked': 'Not on chain',
  'admin.solvency.breakdown':
    'Available {{available}} · in orders {{orders}} · withdrawals pending {{withdrawals}} · card top-ups {{card}}',
  'admin.solvency.merkle': 'Proof of liabilities (Merkle root)',
  'admin.solvency.publish': 'Publish snapshot',
  'admin.solvency.published': 'Snapshot published.',
  'admin.solvency.snapshot': 'Snapshot {{id}} of {{time}}, {{count}} accounts',
  'admin.solvency.noSnapshot': 'No snapshot published yet.',

  'wallet.solvency.title': 'Verify my balance',
  'wallet.solvency.verify': 'Verify',
  'wallet.solvency.body':
    'Checks, in your browser, that your balances are included in the latest proof of liabilities the exchange published.',
  'wallet.solvency.verified': 'Included',
  'wallet.solvency.failed': 'Does not verify',
  'wallet.solvency.snapshot': 'Snapshot of {{time}}, {{count}} accounts',
  'wallet.solvency.nothing': 'Nothing owed to you in this snapshot.',
  'wallet.solvency.root': 'Published root',
};
