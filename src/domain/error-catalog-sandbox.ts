/** Error codes of sandbox control: scenarios and provider states, clocks, quotas, faults, snapshots. */
import type { ErrorCatalogEntry } from './error-catalog-entry.js';

export const SANDBOX_ERRORS = {
  unknown_provider_state: {
    status: 400,
    title: 'Unknown provider state',
    help: 'No scenario file declares this Pact provider state. The detail lists the states that exist; declare more with `provider_states: [...]` in a scenario file (docs/pact.md).',
  },
  scenario_not_found: {
    status: 404,
    title: 'Scenario not found',
    help: 'No scenario file has that name. `GET /v3/sandbox/scenarios` (or `credit-sandbox scenario list`) lists the available ones.',
  },
  clock_backwards: {
    status: 422,
    title: 'Clock cannot move backwards',
    help: 'A partner clock only moves forward. Use a later `to` date-time or a positive `by` duration; reset the partner to start over.',
  },
  clock_jump_too_large: {
    status: 422,
    title: 'Clock jump too large',
    help: 'One advance moves a partner clock at most 3660 days (10 years), so a typo cannot make the sandbox run millions of jobs; advance in several steps if you really need more. A clock reads at most 9899-12-31T23:59:59.999Z, so everything it dates (due dates, offer validity, retries) stays within year 9999.',
  },
  partner_protected: {
    status: 403,
    title: 'The default partner cannot be removed',
    help: "The sandbox's default partner (the credential printed at start-up) lives as long as the sandbox: it cannot be deleted or given a lifetime. Create partners of your own (`POST /v3/sandbox/partners`) and delete or expire those.",
  },
  partner_limit_reached: {
    status: 422,
    title: 'Partner limit reached',
    help: 'This sandbox holds as many partners as it is allowed to (`--max-partners`). Delete partners you no longer need (`DELETE /v3/sandbox/partners/{partner_id}`, `credit-sandbox partners delete`), give new ones a short lifetime (`expires_in`, `--ttl`), or ask the operator for a higher limit.',
  },
  quota_exceeded: {
    status: 422,
    title: 'Partner quota reached',
    help: 'On a hosted sandbox each partner may hold a limited number of objects (`--quota-customers`). Reset the partner (`POST /v3/sandbox/reset`) or create another partner.',
  },
  too_many_fault_rules: {
    status: 422,
    title: 'Too many fault rules',
    help: 'A partner holds at most 50 API-side fault rules at once. Delete the ones you no longer need (`DELETE /v3/sandbox/faults/{id}`) or clear them all (`DELETE /v3/sandbox/faults`).',
  },
  fault_rule_unbounded: {
    status: 422,
    title: 'Fault rule on /auth/token must end by itself',
    help: "A rule on `/auth/token` acts on the very call that gets a token, and deleting a rule needs a token: one that never ends would lock the partner out for good. Give it `times` (the next n token requests) or `expires_in` of at most 1h. (The dashboard's Faults page signs in without `/auth/token` and can always delete rules.)",
  },
  snapshot_exists: {
    status: 409,
    title: 'Snapshot name taken',
    help: 'This partner already has a snapshot with that name. Send `"replace": true` (import: `?replace=true`) to overwrite it, delete it first, or pick another name.',
  },
  snapshot_ids_taken: {
    status: 409,
    title: 'Snapshot ids belong to another partner',
    help: 'Snapshots keep their ids, and an id belongs to one partner of a sandbox: another partner here holds an id of this snapshot (it was imported there, or exported from there). Import it into that partner, on another sandbox, or after that partner was reset.',
  },
  snapshot_limit_reached: {
    status: 422,
    title: 'Snapshot bound reached',
    help: 'A partner keeps at most 20 snapshots of at most 16 MiB (as JSON) each, 64 MiB together. Delete snapshots you no longer need (`DELETE /v3/sandbox/snapshots/{name}`), or save a smaller world.',
  },
  snapshot_invalid: {
    status: 422,
    title: 'Snapshot document invalid',
    help: 'An import takes the document `GET /v3/sandbox/snapshots/{name}/export` answered, unchanged: `format` "credit-sandbox-snapshot", a known `version` (1), and every row as the sandbox writes it (its table\'s fields and types, ids that name rows of the same world, webhook URLs this sandbox accepts). Nothing was imported; the detail names the first problem (table, row id and field) and `errors` lists up to 10.',
  },
  snapshot_storage_full: {
    status: 507,
    title: 'Snapshot storage of the instance full',
    help: 'A sandbox instance keeps a bounded number of snapshot bytes for all its partners together (`--max-snapshot-bytes-total`, 128 MiB by default, counted as JSON). Nothing was kept. Delete snapshots that are no longer needed (`DELETE /v3/sandbox/snapshots/{name}`), or raise the bound where the sandbox is run.',
  },
  provider_state_failed: {
    status: 422,
    title: 'Provider state could not be set up',
    help: 'The scenario that sets up this provider state failed; the detail names the step and why. Run it alone with `POST /v3/sandbox/scenarios/{name}/runs` to see every step.',
  },
  scenario_files_invalid: {
    status: 500,
    title: 'Scenario files are invalid',
    help: 'A scenario file served by this sandbox no longer validates (it was edited while the server ran). The detail names the file, the step and the problem; fix the file and retry.',
  },
} as const satisfies Record<string, ErrorCatalogEntry>;
