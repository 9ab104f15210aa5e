-- Solved ALTCHA challenges, by challenge id: a solution is accepted once by every api process together, and
-- across restarts, until its challenge expires. Rows older than the challenge lifetime are swept by the app.
create table captcha_solutions (
  challenge_id text primary key,
  seen_at      timestamptz not null default now()
);
create index captcha_solutions_seen_idx on captcha_solutions (seen_at);
