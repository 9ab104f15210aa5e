-- The receiving side of an internal transfer (a withdrawal to another user's deposit address): a deposit record
-- of the receiver, credited at once, whose txid is the sender's withdrawal reference (W<id>). One per withdrawal.
alter table deposits add column internal_withdrawal_id bigint unique references withdrawals(id);
