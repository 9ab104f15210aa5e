-- Reference data: currencies, the chains they live on, markets and fees.
create table currencies (
  id            text primary key check (id ~ '^[a-z0-9]{2,10}$'),
  name          text not null,
  type          text not null check (type in ('coin', 'fiat')),
  precision     smallint not null check (precision between 0 and 18),
  icon_url      text,
  position      integer not null default 0,
  visible       boolean not null default true,
  deposit_fee   numeric(36, 18) not null default 0 check (deposit_fee >= 0),
  swap_fee      numeric(36, 18) not null default 0 check (swap_fee >= 0),
  created_at    timestamptz not null default now(),
  updated_at    timestamptz not null default now()
);

create table blockchains (
  key           text primary key check (key ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  name          text not null,
  client        text not null,
  min_confirmations integer not null default 30 check (min_confirmations > 0),
  explorer_address     text,
  explorer_transaction text,
  status        text not null default 'active' check (status in ('active', 'disabled')),
  created_at    timestamptz not null default now()
);

create table currency_networks (
  id                  bigserial primary key,
  currency_id         text not null references currencies(id),
  blockchain_key      text not null references blockchains(key),
  protocol            text,
  contract_address    text,
  min_deposit_amount  numeric(36, 18) not null default 0 check (min_deposit_amount >= 0),
  min_withdraw_amount numeric(36, 18) not null default 0 check (min_withdraw_amount >= 0),
  withdraw_fee        numeric(36, 18) not null default 0 check (withdraw_fee >= 0),
  deposit_fee         numeric(36, 18) not null default 0 check (deposit_fee >= 0),
  deposit_enabled     boolean not null default true,
  withdraw_enabled    boolean not null default true,
  unique (currency_id, blockchain_key)
);

create table markets (
  id               text primary key check (id ~ '^[a-z0-9]{4,20}$'),
  base_unit        text not null references currencies(id),
  quote_unit       text not null references currencies(id),
  amount_precision smallint not null check (amount_precision between 0 and 18),
  price_precision  smallint not null check (price_precision between 0 and 18),
  min_price        numeric(36, 18) not null check (min_price > 0),
  max_price        numeric(36, 18) not null check (max_price = 0 or max_price >= min_price),
  min_amount       numeric(36, 18) not null check (min_amount > 0),
  position         integer not null default 0,
  state            text not null default 'enabled' check (state in ('enabled', 'disabled', 'hidden')),
  created_at       timestamptz not null default now(),
  updated_at       timestamptz not null default now(),
  check (base_unit <> quote_unit)
);

-- Fee schedule: 'any' matches every market or every trading level (group).
create table trading_fees (
  id         bigserial primary key,
  market_id  text not null default 'any',
  "group"    text not null default 'any',
  maker      numeric(10, 6) not null check (maker >= 0 and maker < 1),
  taker      numeric(10, 6) not null check (taker >= 0 and taker < 1),
  created_at timestamptz not null default now(),
  unique (market_id, "group")
);

-- Identity (Barong's user entity; the identity issue extends it).
create table users (
  id              bigserial primary key,
  uid             text not null unique,
  email           text not null,
  password_digest text not null,
  role            text not null default 'member',
  level           integer not null default 0 check (level between 0 and 3),
  state           text not null default 'pending' check (state in ('pending', 'active', 'disabled', 'locked', 'deleted')),
  otp             boolean not null default false,
  created_at      timestamptz not null default now(),
  updated_at      timestamptz not null default now()
);
create unique index users_email_key on users (lower(email));

create table labels (
  id         bigserial primary key,
  user_id    bigint not null references users(id) on delete cascade,
  key        text not null,
  value      text not null,
  scope      text not null default 'private' check (scope in ('private', 'public')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (user_id, key, scope)
);

create table phones (
  id           bigserial primary key,
  user_id      bigint not null references users(id) on delete cascade,
  country      text not null,
  number       text not null,
  validated_at timestamptz,
  created_at   timestamptz not null default now()
);
create index phones_user_idx on phones (user_id);

create table profiles (
  id         bigserial primary key,
  user_id    bigint not null references users(id) on delete cascade,
  first_name text,
  middle_name text,
  last_name  text,
  gender     text,
  dob        date,
  address    text,
  postcode   text,
  city       text,
  country    text,
  state      text not null default 'drafted',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index profiles_user_idx on profiles (user_id);

-- Money: balances are the materialised sum of the double-entry ledger below.
create table balances (
  user_id     bigint not null references users(id),
  currency_id text not null references currencies(id),
  balance     numeric(36, 18) not null default 0 check (balance >= 0),
  locked      numeric(36, 18) not null default 0 check (locked >= 0),
  updated_at  timestamptz not null default now(),
  primary key (user_id, currency_id)
);

-- Every balance change is a set of postings summing to zero per currency.
-- account: 'u:<user_id>:main', 'u:<user_id>:locked', 'fees', 'external', 'card', ...
create table ledger_postings (
  id          bigserial primary key,
  batch_seq   bigint,
  account     text not null,
  currency_id text not null references currencies(id),
  amount      numeric(36, 18) not null check (amount <> 0),
  kind        text not null,
  ref         text,
  created_at  timestamptz not null default now()
);
create index ledger_postings_account_idx on ledger_postings (account, currency_id);

-- Support and outgoing messages.
create table contact_messages (
  id         bigserial primary key,
  email      text not null,
  subject    text not null,
  name       text not null,
  message    text not null,
  user_type  text not null,
  user_id    bigint references users(id),
  ip         text,
  user_agent text,
  created_at timestamptz not null default now()
);

create table mail_outbox (
  id         bigserial primary key,
  channel    text not null check (channel in ('email', 'sms')),
  recipient  text not null,
  subject    text not null default '',
  body       text not null,
  reply_to   text,
  sent_at    timestamptz,
  error      text,
  created_at timestamptz not null default now()
);
create index mail_outbox_created_idx on mail_outbox (created_at desc);
