-- Seeded random streams (--seed): how many blocks each partner's stream has drawn, kept with the
-- partner's rows so the position moves with the partner from one instance to another.
CREATE TABLE random_counters (id text PRIMARY KEY, partner_id text NOT NULL, record json NOT NULL);
CREATE INDEX random_counters_partner ON random_counters (partner_id);
