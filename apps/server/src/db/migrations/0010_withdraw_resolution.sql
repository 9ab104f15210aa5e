-- An operator's decision on an errored withdrawal (broadcast outcome unknown): `failed` means it never reached the
-- chain, and the app releases the held funds. (`sent` is recorded by moving it to `confirming` with its txid.)
alter table withdrawals add column resolution text check (resolution in ('failed'));
