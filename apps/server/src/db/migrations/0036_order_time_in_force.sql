-- Limit order options (issue 32): the time in force (gtc, ioc, fok) and the post-only flag, as the engine placed
-- the order. They never change after placement. Rows written before are gtc and not post-only, except market
-- orders, which fill what the book has and cancel the rest: the engine reports them as ioc.
alter table orders add column time_in_force text not null default 'gtc' check (time_in_force in ('gtc', 'ioc', 'fok'));
alter table orders add column post_only boolean not null default false;
update orders set time_in_force = 'ioc' where ord_type = 'market';
