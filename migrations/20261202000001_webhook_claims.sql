-- The outbox's claims (rule book §16) count, per endpoint, the tries in
-- flight and the deliveries due: both among the pending rows alone, read in
-- the order of their endpoint. Without this index a claim read every
-- delivery ever made.
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (webhook_id, next_at) WHERE status = 'pending';
