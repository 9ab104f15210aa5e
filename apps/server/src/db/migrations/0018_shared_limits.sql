-- What several api processes must share in a split deployment (ROLE): request counters of the rate limits
-- and the API-key nonces already seen. One process keeps both in memory instead.
create table rate_limit_hits (
  key      text primary key,
  hits     integer not null,
  reset_at timestamptz not null
);

create table api_key_nonces (
  kid     text not null,
  nonce   bigint not null,
  seen_at timestamptz not null default now(),
  primary key (kid, nonce)
);
create index api_key_nonces_seen_idx on api_key_nonces (seen_at);
