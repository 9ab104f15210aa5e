-- Staff never decide anything that concerns their own customer account (a staff member is a user with a role, and
-- may hold balances, withdraw, apply for KYC or a card like anyone). The console refuses it; these triggers refuse
-- it again, so that a bug in the service cannot slip a self-decision through. They raise SQLSTATE XCS01, which the
-- admin API answers as 403 `admin.user.own_account`.
--
-- Triggers rather than check constraints: they judge a row when a decision is written (insert, or an update of
-- the columns that name who decides and whom it concerns), so a row decided before this migration stays as the
-- evidence it is, and the later state changes of such a row (the core accepting a pending adjustment) go on.
create function refuse_own_decision() returns trigger language plpgsql as $$
begin
  raise exception 'staff may not decide on their own account (%)', tg_table_name using errcode = 'XCS01';
end
$$;

-- Adjustments: neither the proposer nor the approver may be the adjusted account (the four-eyes constraint between
-- proposer and approver stays as it is).
create trigger adjustments_not_own before insert or update of user_id, proposed_by, decided_by on adjustments
  for each row when (new.user_id = new.proposed_by or new.user_id = new.decided_by)
  execute function refuse_own_decision();

-- Withdrawal reviews: the reviewer is neither the sender nor, for a transfer inside the exchange, the recipient.
-- The WHEN clause is evaluated without calling the function: an ordinary withdrawal pays one comparison on insert.
create trigger withdrawals_not_own before insert or update of user_id, internal_user_id, reviewed_by on withdrawals
  for each row when (new.reviewed_by = new.user_id or new.reviewed_by = new.internal_user_id)
  execute function refuse_own_decision();

-- The customer accounts a staff action concerns, from the trail's target: a user's uid (lock, unlock, 2FA reset,
-- sessions, KYC and card-holder reviews), `adjustment:<id>` (the adjusted account) or `withdrawal:<id>` (the sender
-- and, for an internal transfer, the recipient). Other targets (markets, networks, limits) concern no account.
create function staff_action_subjects(target text) returns bigint[] language sql stable as $$
  select case
    when target is null then '{}'::bigint[]
    when position(':' in target) = 0 then array(select id from users where uid = target)
    when target ~ '^adjustment:[0-9]{1,18}$' then
      array(select user_id from adjustments where id = substr(target, 12)::bigint)
    when target ~ '^withdrawal:[0-9]{1,18}$' then
      array(select unnest(array[user_id, internal_user_id]) from withdrawals where id = substr(target, 12)::bigint)
    else '{}'::bigint[]
  end
$$;

-- Every staff change is written to the trail in the transaction that makes it: a trail line whose staff member is
-- the account it concerns is refused, and the change with it (user state and two-factor, sessions, the KYC and
-- card-holder decisions at the provider, adjustments, withdrawal decisions and resolutions).
create trigger staff_actions_not_own before insert on staff_actions
  for each row when (new.staff_id = any(staff_action_subjects(new.target)))
  execute function refuse_own_decision();
