-- A suspension's end (`until`, set on the app's clock) is compared with the app's time when the transaction that
-- approves the withdrawal says it (`exchange.now`, set locally by the console's review), so a test that moves the
-- app's clock past the end sees the approval go through; any other path, as before, with the database's time.
create or replace function aml_refuse_suspended() returns trigger language plpgsql as $$
begin
  if exists (select 1 from aml_suspensions s where s.withdrawal_id = new.id and s.lifted_at is null
             and s.until > coalesce(nullif(current_setting('exchange.now', true), '')::timestamptz, now())) then
    raise exception 'withdrawal % is suspended for a report', new.id using errcode = 'XCA01';
  end if;
  return new;
end
$$;
