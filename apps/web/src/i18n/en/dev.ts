/** Developer tools pages. */
export const dev = {
  'dev.inbox.title': 'Developer inbox',
  'dev.inbox.intro':
    'Every email and SMS the exchange sends, as long as no real mail server is configured. Codes for registration and login appear here within a second.',
  'dev.inbox.off': 'Developer tools are turned off on this server (DEV_TOOLS=false or NODE_ENV=production).',
  'dev.inbox.filter': 'Only messages to (email or phone digits)',
  'dev.inbox.empty': 'No messages yet.',
  'dev.faucet.title': 'Developer faucet',
  'dev.faucet.intro':
    'Sends test coins on a simulated chain to any address (yours is filled in when you are signed in) and mines blocks so deposits get their confirmations.',
  'dev.faucet.network': 'Network',
  'dev.faucet.currency': 'Currency',
  'dev.faucet.address': 'Address',
  'dev.faucet.amount': 'Amount',
  'dev.faucet.send': 'Send',
  'dev.faucet.sent': 'Coins sent',
  'dev.faucet.blocks': 'Blocks',
  'dev.faucet.mine': 'Mine blocks',
  'dev.faucet.mined': 'Blocks mined',
  'dev.faucet.unsupported_network': 'The faucet works only on the simulated networks',
  'dev.faucet.unsupported_currency': 'This network does not carry that currency',
  'dev.faucet.invalid_address': 'This address is not valid for the network',
  'dev.faucet.invalid_amount': 'Please enter a positive amount',
} as const;
