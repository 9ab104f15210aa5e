-- The simulated providers (KYC and card issuer) wake when they have work, not every second: each change that
-- queues a webhook or schedules work for them announces itself on `exchange_changes` at commit, whoever made it
-- (this process, the operator's command line, plain SQL). Payload `o:<the provider's webhook table>`; one
-- notification per statement (PostgreSQL folds repeats within a transaction).
create function notify_simulator_work() returns trigger language plpgsql as $$
begin
  perform pg_notify('exchange_changes', 'o:' || tg_argv[0]);
  return null;
end
$$;

create trigger kyc_sim_webhooks_work after insert on kyc_sim_webhooks
  for each statement execute function notify_simulator_work('kyc_sim_webhooks');
create trigger kyc_sim_applicants_work after insert or update of review_status, auto_review_at on kyc_sim_applicants
  for each statement execute function notify_simulator_work('kyc_sim_webhooks');

create trigger cardsim_webhooks_work after insert on cardsim_webhooks
  for each statement execute function notify_simulator_work('cardsim_webhooks');
create trigger cardsim_kyc_work after insert or update of status, auto_review_at on cardsim_kyc
  for each statement execute function notify_simulator_work('cardsim_webhooks');
create trigger cardsim_cards_work after insert or update of fulfillment_status, ship_at, deliver_at, balance on cardsim_cards
  for each statement execute function notify_simulator_work('cardsim_webhooks');
create trigger cardsim_gpaorders_work after insert or update of state, settle_at on cardsim_gpaorders
  for each statement execute function notify_simulator_work('cardsim_webhooks');
