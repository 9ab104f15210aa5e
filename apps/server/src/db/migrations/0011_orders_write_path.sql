-- Orders are written only by the core (a plain insert when opened, an update of the changing columns after), for
-- users and markets it has loaded, like trades and the ledger (0006): the per-row foreign-key lookups cost more
-- than they protect.
alter table orders drop constraint if exists orders_user_id_fkey;
alter table orders drop constraint if exists orders_market_id_fkey;
-- Never written nor read: its unique index was maintained on every insert for nothing.
alter table orders drop constraint if exists orders_client_ref_key;
-- Only start-up reads open orders by state, and they scan the table anyway (max(seq)). Without an index on
-- `state`, the fill and cancel updates change no indexed column and stay heap-only (HOT, fillfactor 85).
drop index if exists orders_open_idx;
