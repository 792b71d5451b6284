-- Shared mode: which instance owns (holds in memory and serves) each partner, until when.
-- An owner renews its leases in the background; a lease past expires_at may be taken over.
CREATE TABLE partner_leases (
  partner_id text PRIMARY KEY,
  owner text NOT NULL,
  owner_url text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX partner_leases_owner ON partner_leases (owner);
CREATE INDEX partner_leases_expiry ON partner_leases (expires_at);
