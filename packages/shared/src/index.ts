export * from './constants.ts';
export * from './errors.ts';
export * from './money.ts';
export * from './schemas/account-security.ts';
export * from './schemas/contact.ts';
export * from './schemas/identity.ts';
export * from './schemas/trading.ts';
export * from './validation.ts';
