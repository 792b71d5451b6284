-- Named snapshots of partner worlds (POST /v3/sandbox/snapshots): one row per partner and name,
-- loaded with the partner's other rows by the instance that owns it.
CREATE TABLE snapshots (id text PRIMARY KEY, partner_id text NOT NULL, record jsonb NOT NULL);
CREATE INDEX snapshots_partner ON snapshots (partner_id);
