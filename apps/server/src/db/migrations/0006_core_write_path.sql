-- The ledger and trades are append-only and written only by the core, for currencies, markets and users it has
-- loaded: a per-row foreign-key lookup and an index the hot path never reads cost more than they protect.
-- The audit (npm run audit) reads the ledger by full scans.
alter table ledger_postings drop constraint if exists ledger_postings_currency_id_fkey;
drop index if exists ledger_postings_account_idx;
alter table trades drop constraint if exists trades_market_id_fkey;
alter table trades drop constraint if exists trades_maker_id_fkey;
alter table trades drop constraint if exists trades_taker_id_fkey;
-- Balances are updated in place by every batch: leave room in each page so updates stay on-page (HOT).
alter table balances set (fillfactor = 70);
alter table orders set (fillfactor = 85);
