/** The development outbox's message (`OutboxMessage`) is a response schema: see `responses/identity.ts`. */
export {};
