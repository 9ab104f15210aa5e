-- Account types (issue 31, part 3): the FAQ's "Personal and Business". A business account holds a company and
-- its representatives (tables of their own, later migrations); mass payouts and bank deposits are for a
-- business whose company and representative are verified (level 3). Existing accounts are personal.
alter table users add column account_type text not null default 'personal'
  check (account_type in ('personal', 'business'));
