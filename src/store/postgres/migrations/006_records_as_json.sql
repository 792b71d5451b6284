-- Records as json, not jsonb: jsonb reorders object keys (shorter keys first), so a record loaded
-- after a takeover or a restart answered its nested objects in another key order than the owner
-- that wrote it. json keeps the text as written; lookups (->>) work on it alike.
ALTER TABLE partners ALTER COLUMN record TYPE json USING record::json;
ALTER TABLE credentials ALTER COLUMN record TYPE json USING record::json;
ALTER TABLE idempotency ALTER COLUMN record TYPE json USING record::json;
ALTER TABLE events ALTER COLUMN record TYPE json USING record::json;
ALTER TABLE jobs ALTER COLUMN record TYPE json USING record::json;
ALTER TABLE customers ALTER COLUMN record TYPE json USING record::json;
ALTER TABLE documents ALTER COLUMN record TYPE json USING record::json;
ALTER TABLE biometrics_sessions ALTER COLUMN record TYPE json USING record::json;
ALTER TABLE webhook_endpoints ALTER COLUMN record TYPE json USING record::json;
ALTER TABLE webhook_deliveries ALTER COLUMN record TYPE json USING record::json;
ALTER TABLE credit_offers ALTER COLUMN record TYPE json USING record::json;
ALTER TABLE simulations ALTER COLUMN record TYPE json USING record::json;
ALTER TABLE loans ALTER COLUMN record TYPE json USING record::json;
ALTER TABLE transactions ALTER COLUMN record TYPE json USING record::json;
ALTER TABLE requests ALTER COLUMN record TYPE json USING record::json;
ALTER TABLE fault_rules ALTER COLUMN record TYPE json USING record::json;
ALTER TABLE snapshots ALTER COLUMN record TYPE json USING record::json;
