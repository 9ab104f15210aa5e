-- Peatio's currency fields BaseApp and Peatio clients read (issue 30): a description and a homepage, set by the
-- operator (null: not given). The seed fills them for its own currencies.
alter table currencies add column description text check (char_length(description) <= 1000);
alter table currencies add column homepage text check (homepage ~ '^https://[^\s]{1,200}$');
