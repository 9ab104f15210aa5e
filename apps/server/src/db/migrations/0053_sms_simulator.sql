-- (The SMS simulator's table, made here until issue 34, is the simulators' own now: packages/provider-sims/migrations.
-- The name stays: a database that applied it keeps it recorded.)
select 1;
