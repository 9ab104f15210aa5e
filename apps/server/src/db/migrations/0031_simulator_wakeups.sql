-- Background work wakes when there is some, not every second: a change that queues work announces itself on
-- `exchange_changes` at commit, whoever made it (this process, the operator's command line, plain SQL). Payload
-- `o:<the queue's table>`; one notification per statement (PostgreSQL folds repeats within a transaction). The
-- mail queue (0032) uses it. (The simulators' triggers, made here until issue 34, are theirs now, on a function of
-- their own: packages/provider-sims/migrations.)
create function notify_simulator_work() returns trigger language plpgsql as $$
begin
  perform pg_notify('exchange_changes', 'o:' || tg_argv[0]);
  return null;
end
$$;
