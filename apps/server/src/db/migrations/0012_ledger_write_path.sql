-- Ledger postings are appended by the core, one row per account and currency per batch, and read only by full
-- scans (the audit) or by account and date (the balance chart); nothing looks a posting up by its own id. The id
-- cost a sequence call and a primary-key index entry for every row on the hot path. A batch's postings are
-- identified by batch_seq (core) or ref (postings written outside the core).
alter table ledger_postings drop column id;
