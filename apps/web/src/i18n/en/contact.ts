/** Contact page strings. */
export const contact = {
  'contact.title': 'Contact us',
  'contact.intro':
    'Questions about your account, a deposit or the card? Write to us and our support team will answer by email.',
  'contact.email': 'Email',
  'contact.subject': 'Subject',
  'contact.name': 'Name',
  'contact.message': 'Message',
  'contact.submit': 'Send message',
  'contact.sent': 'Your message has been sent. We will reply by email.',
} as const;
