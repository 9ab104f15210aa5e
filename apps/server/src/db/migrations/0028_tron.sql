-- (The java-tron HTTP API simulator's tables, made here until issue 34, are the chain simulator's own now:
-- packages/chain-sim/migrations/tron. The name stays: a database that applied it keeps it recorded.)
select 1;
