-- The travel rule on incoming transfers (Regulation (EU) 2023/1113, art. 16-17): a crypto deposit sent by another
-- provider must come with the originator's information; one that does not is not credited until compliance
-- releases it or returns it.

-- Who sent a deposit on chain (account chains name the sender; Bitcoin's inputs do not, so it stays null there).
alter table deposits add column from_address text;

-- Where a chain deposit stands under the travel rule, checked once it has its confirmations (null before, and for
-- deposits that never reach a chain: internal transfers, SEPA, and those of an app without a travel-rule port):
--   not_required  the sender is not known as a provider's (a self-hosted wallet, or unknown): credited as always
--   unchecked     the travel-rule service could not be asked: credited, and visible for a later look (art. 16(1))
--   received      the sending provider delivered the originator's information: credited
--   awaiting      from a provider, no originator information yet: not credited while the window runs
--   held          the window ran out without it: not credited, waiting for compliance
--   released      compliance released it: credited (exactly once, through the core's `deposit:<id>`)
--   returned      compliance refused it: rejected, to be sent back to the sender outside the product
alter table deposits
  add column travel_rule jsonb,
  add column travel_rule_status text
    check (travel_rule_status in
      ('not_required', 'unchecked', 'received', 'awaiting', 'held', 'released', 'returned')),
  -- When the travel-rule service was last asked about it (a waiting deposit is asked again now and then).
  add column travel_rule_checked_at timestamptz,
  add column travel_rule_decided_by bigint references users(id),
  add column travel_rule_decided_at timestamptz,
  add column travel_rule_note text;
create index deposits_travel_rule_review_idx on deposits (id) where travel_rule_status in ('awaiting', 'held');

-- Staff never release or return a deposit of their own account (migration 0022's rule, enforced here too).
create trigger deposits_travel_rule_not_own before insert or update of user_id, travel_rule_decided_by on deposits
  for each row when (new.travel_rule_decided_by = new.user_id)
  execute function refuse_own_decision();

-- (The travel-rule network simulator's tables, made here until issue 34, are the simulators' own now: packages/provider-sims/migrations.)
