-- The active exchange core's term. A core raises it when it takes the lease (a PostgreSQL advisory lock), and
-- every batch it commits is fenced by it: a core whose term was superseded can never commit again.
alter table engine_state add column core_term bigint not null default 0;

-- Raises (SQLSTATE XC001) when a batch's term is not the current one; true otherwise, so it can sit in a WHERE.
create function core_fence(current_term bigint, expected_term bigint) returns boolean
language plpgsql as $$
begin
  if current_term <> expected_term then
    raise exception 'exchange core fenced: its term % was superseded by term %', expected_term, current_term
      using errcode = 'XC001';
  end if;
  return true;
end
$$;
