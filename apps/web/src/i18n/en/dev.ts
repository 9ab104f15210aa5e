/** Developer tools pages. */
export const dev = {
  'dev.inbox.title': 'Developer inbox',
  'dev.inbox.intro':
    'Every email and SMS the exchange sends, as long as no real mail server is configured. Codes for registration and login appear here within a second.',
  'dev.inbox.off': 'Developer tools are turned off on this server (DEV_TOOLS=false or NODE_ENV=production).',
  'dev.inbox.filter': 'Only messages to (email or phone digits)',
  'dev.inbox.empty': 'No messages yet.',
} as const;
