-- Card suite, part 2: money. Top-ups (spot USDT → the card, through the core's `card` float), the card balance
-- as the issuer reported it.

-- The card's balance in USDT as the issuer's webhooks last reported it (settled top-ups, spends, refunds).
alter table cards add column balance numeric not null default 0;

create table card_topups (
  id          bigserial primary key,
  card_id     bigint not null references cards(id) on delete cascade,
  user_id     bigint not null references users(id) on delete cascade,
  -- What reaches the card, and the top-up fee (to the `fees` account), in USDT.
  amount      numeric not null check (amount > 0),
  fee         numeric not null check (fee >= 0),
  -- new: recorded, the core not asked yet (a restart asks again with the same ref); submitted: the money is in
  -- the core's `card` float and the issuer has (or will get) the funding order; settled: on the card;
  -- failed: the issuer refused it, the refund is due; refunded: back on the spot balance.
  state       text not null check (state in ('new', 'submitted', 'settled', 'failed', 'refunded')),
  -- The funding order at the issuer (`gpaorders` token), ours so a retried call is the same order.
  issuer_token text not null unique,
  -- Whether the issuer accepted the funding order call (false: the call is retried by the card tick).
  sent        boolean not null default false,
  created_on  date not null default (now() at time zone 'utc')::date,
  created_at  timestamptz not null default now(),
  settled_at  timestamptz,
  refunded_at timestamptz
);
create index card_topups_card_idx on card_topups (card_id, id desc);
create index card_topups_day_idx on card_topups (card_id, created_on);
create index card_topups_open_idx on card_topups (state) where state in ('new', 'failed') or not sent;

-- (The card issuer simulator's tables, made here until issue 34, are the simulators' own now: packages/provider-sims/migrations.)
