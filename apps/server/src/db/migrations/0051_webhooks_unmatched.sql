-- The provider webhooks this exchange received but could not match (an applicant or a card it does not know): the
-- console's health and `exchange_webhooks_unmatched` count the last day's on every check and scrape, so they are
-- found without reading every event ever received (they are rare; the index stays small).
create index kyc_webhook_events_unmatched_idx on kyc_webhook_events (received_at) where outcome = 'unknown_applicant';
create index card_webhook_events_unmatched_idx on card_webhook_events (received_at) where outcome = 'unknown';
