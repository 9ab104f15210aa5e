create table favourite_markets (
  user_id    bigint not null references users(id) on delete cascade,
  market_id  text not null references markets(id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (user_id, market_id)
);
