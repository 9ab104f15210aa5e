/**
 * @exchange/engine — a pure, deterministic exchange core: order books, matching, holds, fees and ledger
 * postings. No I/O, no clock, no randomness; money is bigint in each currency's smallest unit.
 */
export { type BookNode, BookSide, depth, Level, OrderBook } from './book.ts';
export { Rejection, type RejectionCode } from './codes.ts';
export { Engine } from './engine.ts';
export type * from './events.ts';
export { type ConservationReport, type CurrencyTotals, checkConservation } from './invariants.ts';
export { feeOf } from './matching.ts';
export type * from './types.ts';
