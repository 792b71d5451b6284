-- The request inspector's log (a ring per partner, trimmed by the owner instance).
CREATE TABLE requests (id text PRIMARY KEY, partner_id text NOT NULL, record jsonb NOT NULL);
CREATE INDEX requests_partner ON requests (partner_id);
