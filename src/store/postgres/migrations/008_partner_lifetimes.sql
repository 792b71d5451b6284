-- Partners removed for good (deleted, or their lifetime ran out): one row per gone partner id and
-- one per client id it had, so its credentials and tokens answer why they stopped working. Pruned
-- after a while (docs/scaling.md, "Running a sandbox for months").
CREATE TABLE partner_tombstones (id text PRIMARY KEY, partner_id text NOT NULL, record json NOT NULL);
CREATE INDEX partner_tombstones_partner ON partner_tombstones (partner_id);
-- The expiry sweep finds the partners whose lifetime ran out without reading every record.
CREATE INDEX partners_expires_at ON partners (((record->>'expires_at_ms')::bigint));
-- Every partner has a lease row from now on: one nobody holds is parked (owner '(parked)') until
-- its wake time, instead of having none. Partners written before get one, due now, so the sweep
-- loads them as it loaded partners without a lease before.
INSERT INTO partner_leases (partner_id, owner, owner_url, expires_at)
  SELECT id, '(parked)', '', now() FROM partners
  ON CONFLICT (partner_id) DO NOTHING;
