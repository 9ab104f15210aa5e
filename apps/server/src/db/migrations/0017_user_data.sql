-- Barong's free-form user data (`PUT /resource/users/me`, e.g. BaseApp's {"language":"en"}): a JSON text.
alter table users add column if not exists data text;
