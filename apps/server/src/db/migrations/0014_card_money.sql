-- Card suite, part 2: money. Top-ups (spot USDT → the card, through the core's `card` float), the card balance
-- as the issuer reported it, and the simulator's funding orders and card network transactions.

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

-- The simulator's card balances (USDT units), as an issuer keeps a card's general purpose account.
alter table cardsim_cards add column balance numeric not null default 0;

-- Funding orders (`POST /gpaorders`): pending until `settle_at`, then completed (the card is credited) or
-- declined (the card is no longer active).
create table cardsim_gpaorders (
  token                text primary key,
  user_token           text not null references cardsim_users(token) on delete cascade,
  card_token           text not null references cardsim_cards(token) on delete cascade,
  amount               numeric not null check (amount > 0),
  currency_code        text not null,
  funding_source_token text not null,
  state                text not null check (state in ('PENDING', 'COMPLETION', 'DECLINED')),
  settle_at            timestamptz not null,
  created_time         timestamptz not null default now(),
  last_modified_time   timestamptz not null default now()
);
create index cardsim_gpaorders_due_idx on cardsim_gpaorders (settle_at) where state = 'PENDING';

-- The card network's transactions (the statement), with the spec's type codes: 100 top-up, 150
-- pre-authorization, 151 payment, 2/3 reversal, 10 refund, 110 ATM withdrawal, 500 fee.
create table cardsim_transactions (
  token         text primary key,
  card_token    text not null references cardsim_cards(token) on delete cascade,
  type_code     integer not null,
  -- pending (authorised, not cleared), cleared (an authorisation whose clearing is the settled row), settled,
  -- declined, reversed
  status        text not null check (status in ('pending', 'cleared', 'settled', 'declined', 'reversed')),
  -- Signed: negative leaves the card.
  eur_cents     numeric not null,
  usdt_units    numeric not null,
  -- EUR per USDT.
  rate          numeric not null,
  merchant      text,
  decline_reason text,
  -- The transaction this one follows (a clearing its authorisation, a refund or reversal its purchase).
  related_token text references cardsim_transactions(token),
  created_time  timestamptz not null default now(),
  settled_time  timestamptz
);
create index cardsim_transactions_card_idx on cardsim_transactions (card_token, created_time desc);
