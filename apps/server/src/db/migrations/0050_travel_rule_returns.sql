-- A deposit returned under the travel rule goes back to its sender as a withdrawal of the customer's account paid
-- from the hot wallet by the usual pipeline (processor, signer, confirmations). Its funds were never credited: the
-- core holds them from `external` (HoldWithdrawal with fromExternal), never through the customer's balance, and
-- the network's withdrawal fee is kept (`fees`), as for any withdrawal.

-- The deposit a withdrawal returns (null for every other withdrawal); one return per deposit, whoever asks.
alter table withdrawals add column travel_rule_return_of bigint references deposits(id);
create unique index withdrawals_travel_rule_return_once on withdrawals (travel_rule_return_of)
  where travel_rule_return_of is not null;
-- The processor's look for returns a crash left recorded but not held.
create index withdrawals_travel_rule_return_prepared_idx on withdrawals (id)
  where state = 'prepared' and travel_rule_return_of is not null;
