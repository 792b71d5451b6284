-- One table per store table: the record as jsonb, plus the columns the loader filters on.
-- partner_id is the owning partner (for the partners table, the partner's own id).
CREATE TABLE sandbox_meta (
  key text PRIMARY KEY,
  value jsonb NOT NULL
);

CREATE TABLE partners (id text PRIMARY KEY, partner_id text NOT NULL, record jsonb NOT NULL);
CREATE TABLE credentials (id text PRIMARY KEY, partner_id text NOT NULL, record jsonb NOT NULL);
CREATE TABLE idempotency (id text PRIMARY KEY, partner_id text NOT NULL, record jsonb NOT NULL);
CREATE TABLE events (id text PRIMARY KEY, partner_id text NOT NULL, record jsonb NOT NULL);
CREATE TABLE jobs (id text PRIMARY KEY, partner_id text NOT NULL, record jsonb NOT NULL);
CREATE TABLE customers (id text PRIMARY KEY, partner_id text NOT NULL, record jsonb NOT NULL);
CREATE TABLE documents (id text PRIMARY KEY, partner_id text NOT NULL, record jsonb NOT NULL);
CREATE TABLE biometrics_sessions (id text PRIMARY KEY, partner_id text NOT NULL, record jsonb NOT NULL);
CREATE TABLE webhook_endpoints (id text PRIMARY KEY, partner_id text NOT NULL, record jsonb NOT NULL);
CREATE TABLE webhook_deliveries (id text PRIMARY KEY, partner_id text NOT NULL, record jsonb NOT NULL);
CREATE TABLE credit_offers (id text PRIMARY KEY, partner_id text NOT NULL, record jsonb NOT NULL);
CREATE TABLE simulations (id text PRIMARY KEY, partner_id text NOT NULL, record jsonb NOT NULL);
CREATE TABLE loans (id text PRIMARY KEY, partner_id text NOT NULL, record jsonb NOT NULL);
CREATE TABLE transactions (id text PRIMARY KEY, partner_id text NOT NULL, record jsonb NOT NULL);

CREATE INDEX partners_partner ON partners (partner_id);
CREATE INDEX credentials_partner ON credentials (partner_id);
CREATE INDEX idempotency_partner ON idempotency (partner_id);
CREATE INDEX events_partner ON events (partner_id);
CREATE INDEX jobs_partner ON jobs (partner_id);
CREATE INDEX customers_partner ON customers (partner_id);
CREATE INDEX documents_partner ON documents (partner_id);
CREATE INDEX biometrics_sessions_partner ON biometrics_sessions (partner_id);
-- The hosted capture page finds its session by the hash of the token in its URL.
CREATE INDEX biometrics_sessions_token ON biometrics_sessions ((record->>'token_hash'));
CREATE INDEX webhook_endpoints_partner ON webhook_endpoints (partner_id);
CREATE INDEX webhook_deliveries_partner ON webhook_deliveries (partner_id);
CREATE INDEX credit_offers_partner ON credit_offers (partner_id);
CREATE INDEX simulations_partner ON simulations (partner_id);
CREATE INDEX loans_partner ON loans (partner_id);
CREATE INDEX transactions_partner ON transactions (partner_id);
