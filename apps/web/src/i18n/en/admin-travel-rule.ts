/** The incoming travel rule: the console's tab (/admin) for deposits held without the originator's information. */
export const adminTravelRule = {
  'admin.travel_rule.deposit_not_found': 'No such deposit.',
  'admin.travel_rule.not_held': 'This deposit is not held (any more).',
  'admin.travel_rule.sender_unknown':
    'This network does not name the sender of a transfer (Bitcoin), so it cannot be returned from here: return it outside the product, or release it.',
  'admin.travel_rule.return_below_fee':
    'The network fee is as large as this deposit: nothing would reach the sender.',
  'admin.travel_rule.network_unavailable': 'This network has no withdrawal rules for the currency any more.',

  'admin.tab.travelRule': 'Travel rule',
  'admin.travelRule.title': 'Deposits held under the travel rule',
  'admin.travelRule.intro':
    'Deposits from another provider that came without the originator’s information are not credited. Release one once the information was obtained, or return it: the hot wallet sends it back to the sender, less the network fee.',
  'admin.travelRule.empty': 'No deposit here.',
  'admin.travelRule.state.held': 'Held',
  'admin.travelRule.state.awaiting': 'Waiting for the record',
  'admin.travelRule.state.unchecked': 'Not checked',
  'admin.travelRule.state.released': 'Released',
  'admin.travelRule.state.returned': 'Returned',
  'admin.travelRule.state.all': 'All',
  'admin.travelRule.deposit': '{{amount}} {{currency}} on {{network}} · txid {{txid}}',
  'admin.travelRule.from': 'From {{from}} ({{provider}}) to {{address}}',
  'admin.travelRule.unknownProvider': 'a provider',
  'admin.travelRule.record': 'Record received without the originator’s information',
  'admin.travelRule.noRecord': 'No record received',
  'admin.travelRule.uncheckedNote':
    'Credited without a travel-rule check: the travel-rule service could not be reached. Ask the sending provider for the originator’s information if the sender is one.',
  'admin.travelRule.reason': 'Reason (for the trail)',
  'admin.travelRule.release': 'Release: credit it',
  'admin.travelRule.return': 'Return to the sender',
  'admin.travelRule.noSender':
    'The network does not name the sender (Bitcoin): it cannot be returned from here; return it outside the product, or release it.',
  'admin.travelRule.returnState':
    'Return: {{amount}} {{currency}} less the network fee {{fee}} to {{to}} · {{state}} · txid {{txid}}',
  'admin.travelRule.returnStates.prepared': 'being held',
  'admin.travelRule.returnStates.accepted': 'waiting to be sent',
  'admin.travelRule.returnStates.processing': 'being sent',
  'admin.travelRule.returnStates.confirming': 'sent, confirming',
  'admin.travelRule.returnStates.succeed': 'returned',
  'admin.travelRule.returnStates.failed': 'failed: the funds are back, uncredited',
  'admin.travelRule.returnStates.errored': 'needs an operator (Withdrawals tab)',
  'admin.travelRule.decided': 'Decided by {{by}} at {{at}}: {{reason}}',
};
