-- API-side fault rules (`/v3/sandbox/faults`): test-harness configuration of each partner.
CREATE TABLE fault_rules (id text PRIMARY KEY, partner_id text NOT NULL, record jsonb NOT NULL);
CREATE INDEX fault_rules_partner ON fault_rules (partner_id);
