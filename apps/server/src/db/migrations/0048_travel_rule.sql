-- The travel rule (Regulation (EU) 2023/1113): who a saved address belongs to, the proof that a self-hosted
-- address is the customer's own, and the originator/beneficiary information each withdrawal carried.

-- Beneficiary information of a saved address. Null for addresses saved by clients that do not send it (older
-- Peatio/BaseApp clients): such a withdrawal carries what is known and the gap is visible to staff.
alter table beneficiaries
  add column beneficiary_name text check (length(beneficiary_name) between 1 and 140),
  add column hosting text check (hosting in ('provider', 'self_hosted')),
  -- The provider hosting the address, from the configured directory (TRAVEL_RULE_PROVIDERS), copied as it was
  -- when saved so a later change of the directory does not rewrite what the customer declared.
  add column provider_id text,
  add column provider_name text,
  add column provider_lei text,
  -- When the customer proved control of a self-hosted address by a signed message, and the proof itself.
  add column ownership_proved_at timestamptz,
  add column ownership_proof jsonb,
  add constraint beneficiaries_provider_check
    check ((hosting = 'provider') = (provider_id is not null and provider_name is not null));

-- Server-issued messages to sign; one use each, for one user's one saved address.
create table address_proof_challenges (
  id             bigserial primary key,
  user_id        bigint not null references users(id),
  beneficiary_id bigint not null references beneficiaries(id) on delete cascade,
  address        text not null,
  message        text not null,
  expires_at     timestamptz not null,
  used_at        timestamptz,
  attempts       integer not null default 0,
  created_at     timestamptz not null default now()
);
create index address_proof_challenges_beneficiary_idx on address_proof_challenges (beneficiary_id, id desc);

-- The IVMS 101 payload of a crypto withdrawal (originator, beneficiary, both providers) and what the
-- beneficiary's provider answered when it was sent over the travel-rule protocol.
alter table withdrawals
  add column travel_rule jsonb,
  add column travel_rule_status text
    check (travel_rule_status in ('not_required', 'self_hosted', 'missing', 'pending', 'sent', 'refused', 'unreachable'));

-- (The travel-rule network simulator's tables, made here until issue 34, are the simulators' own now: packages/provider-sims/migrations.)
