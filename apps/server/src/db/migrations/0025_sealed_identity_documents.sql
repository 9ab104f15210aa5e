-- Identity documents and card holders' document numbers are sealed at rest (AES-256-GCM), as card numbers are:
-- the images users upload for KYC and for their card, and the id numbers. The keys are the app's (derived from
-- SECRET_KEY), which SQL never sees: the app seals the rows
-- written before this migration when it next starts, moving each value into its sealed column and clearing the
-- plain one. A row holds exactly one of the two. The plain columns stay (empty) until every deployment has started
-- once with this version; a later migration drops them.

-- A sealed image is iv (12 bytes) | ciphertext | tag (16 bytes); size_bytes stays the image's own size.
alter table kyc_documents alter column content drop not null,
  add column content_sealed bytea,
  add constraint kyc_documents_content_once check ((content is null) <> (content_sealed is null));
alter table card_holder_documents alter column content drop not null,
  add column content_sealed bytea,
  add constraint card_holder_documents_content_once check ((content is null) <> (content_sealed is null));

-- A sealed text is "iv.ciphertext.tag" in base64url, as cards.pan_enc.
alter table kyc_documents add column doc_number_sealed text,
  add constraint kyc_documents_doc_number_once check (doc_number is null or doc_number_sealed is null);

-- One holder per document number across all users: the uniqueness moves to a keyed hash of the number, as
-- cards.pan_hash finds a card by the number typed.
alter table card_holders alter column id_no drop not null,
  add column id_no_sealed text,
  add column id_no_hash text unique,
  add constraint card_holders_id_no_once check ((id_no is null) <> (id_no_sealed is null)),
  add constraint card_holders_id_no_hashed check ((id_no_sealed is null) = (id_no_hash is null));
