-- IP whitelist (issue 31, part 2). A user with two-factor may restrict logins to a list of addresses and CIDR
-- ranges, stored in their canonical form (apps/server/src/net/ip-rules.ts) so one range is one row whatever
-- spelling it was typed in. No rows: no restriction. It is read at each login, never per request.
create table login_ip_whitelist (
  id         bigserial primary key,
  user_id    bigint not null references users(id) on delete cascade,
  rule       text not null,
  created_at timestamptz not null default now(),
  unique (user_id, rule)
);

-- Each API key may be restricted the same way. The key row is cached by every api process and its change is
-- announced on `exchange_changes` (`k:<kid>`, migration 0030), so a changed list is enforced everywhere at once.
alter table api_keys add column allowed_ips text[] not null default '{}';
