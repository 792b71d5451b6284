import { ALL_EVENT_TYPES, isEventPattern } from '../engine/event-types.js';
import type { JobPayloadSchema } from '../engine/job-payloads.js';
import type { WorldRow, WorldTables } from '../store/snapshot-records.js';
import { MAX_PROBLEMS, type RowProblem } from '../store/world-check.js';
import type { WorldRowOf } from '../store/world-schemas.js';
import { BIOMETRICS_TYPE, DATA_FIELDS, UPLOAD_TYPES } from './customers/requirements.js';

/**
 * What a world's rows must satisfy beyond their schemas, decided by the running sandbox: the job
 * kinds its engine runs, the webhook URLs its mode allows, the data each event type carries. Given
 * by the caller (the API layer knows the engine, the URL rules and the event schemas).
 */
export interface WorldRules {
  /** The payload shape of a job kind the engine runs; undefined for a kind it does not know. */
  jobPayload(kind: string): JobPayloadSchema | undefined;
  /** Why the running sandbox refuses this webhook URL (as the API would on a create), or undefined. */
  endpointUrl(url: string): string | undefined;
  /** Why `data` is not what an event of `type` carries, or undefined. */
  eventData(type: string, data: unknown): string | undefined;
}

const EVENT_TYPES = new Set<string>(ALL_EVENT_TYPES);

/** Whether a KYC item's kind and type are a requirement the sandbox makes. */
function isKnownKycItem(kind: string, type: string): boolean {
  if (kind === 'data') return Object.hasOwn(DATA_FIELDS, type);
  return type === BIOMETRICS_TYPE || Object.hasOwn(UPLOAD_TYPES, type);
}

type Check<T> = (row: T) => [field: string, message: string] | undefined;

const CHECKS: { [table: string]: Check<never> } = {
  events: ((row: WorldRowOf<'events'>) =>
    EVENT_TYPES.has(row.type) ? undefined : ['type', 'is not an event type of this sandbox']) as Check<never>,
  customers: ((row: WorldRowOf<'customers'>) => {
    const at = row.kyc.findIndex((item) => !isKnownKycItem(item.kind, item.type));
    return at < 0 ? undefined : [`kyc.${at}.type`, 'is not a KYC requirement of this kind'];
  }) as Check<never>,
  documents: ((row: WorldRowOf<'documents'>) =>
    Object.hasOwn(UPLOAD_TYPES, row.type) ? undefined : ['type', 'is not a document type']) as Check<never>,
  webhook_endpoints: ((row: WorldRowOf<'webhook_endpoints'>) => {
    const at = row.events.findIndex((pattern) => !isEventPattern(pattern));
    return at < 0 ? undefined : [`events.${at}`, 'is not an event pattern of this sandbox'];
  }) as Check<never>,
};

/**
 * The checks of a world that need the running sandbox (see WorldRules), over rows that passed
 * their schemas, pausing every 1,000 rows (see `checkWorldRowsInSteps`). Returns the problems, at
 * most MAX_PROBLEMS.
 */
export function* checkWorldRules(tables: WorldTables, rules: WorldRules): Generator<void, RowProblem[]> {
  const problems: RowProblem[] = [];
  const report = (table: string, index: number, row: WorldRow, field: string, message: string) =>
    problems.push({ table, index, id: row.id, field, message });
  for (const [table, rows] of Object.entries(tables)) {
    const check = CHECKS[table];
    for (let index = 0; index < rows.length && problems.length < MAX_PROBLEMS; index++) {
      if (index > 0 && index % 1000 === 0) yield;
      const row = rows[index] as WorldRow;
      const found = check?.(row as never);
      if (found) report(table, index, row, found[0], found[1]);
      if (table === 'webhook_endpoints') {
        const why = rules.endpointUrl((row as WorldRowOf<'webhook_endpoints'>).url);
        if (why) report(table, index, row, 'url', why);
      } else if (table === 'events') {
        const event = row as WorldRowOf<'events'>;
        const why = EVENT_TYPES.has(event.type) ? rules.eventData(event.type, event.data) : undefined;
        if (why) report(table, index, row, 'data', why);
      } else if (table === 'jobs') {
        const job = row as WorldRowOf<'jobs'>;
        const payload = rules.jobPayload(job.kind);
        if (!payload) report(table, index, row, 'kind', 'is not a job kind of this sandbox');
        else {
          const parsed = payload.safeParse(job.payload);
          const issue = parsed.success ? undefined : parsed.error.issues[0];
          if (issue)
            report(table, index, row, ['payload', ...issue.path.map(String)].join('.'), issue.message);
        }
      }
    }
  }
  return problems.slice(0, MAX_PROBLEMS);
}
