import type { WorldRow, WorldTables } from '../store/partner-world.js';
import type { PartnerWorld } from '../store/snapshot-records.js';
import { ApiError } from './errors.js';
import { SNAPSHOT_FORMAT, SNAPSHOT_NAME, SNAPSHOT_VERSION } from './snapshots.js';

/**
 * Fields each row of a table must carry with these JSON types: enough to tell a document that was
 * cut, hand-damaged or made by something else from an export, without a schema per record.
 */
const REQUIRED_FIELDS: Record<string, Record<string, 'string' | 'number' | 'array' | 'object'>> = {
  idempotency: { status: 'number', body: 'string', expires_at_ms: 'number' },
  events: { type: 'string', timestamp: 'string', data: 'object' },
  jobs: { kind: 'string', due_at_ms: 'number', payload: 'object' },
  customers: { status: 'string', cpf: 'string', kyc: 'array', created_at: 'string' },
  documents: { customer_id: 'string', status: 'string' },
  biometrics_sessions: { customer_id: 'string', token_hash: 'string', status: 'string' },
  webhook_endpoints: { url: 'string', secret: 'string', events: 'array', status: 'string' },
  webhook_deliveries: { event_id: 'string', endpoint_id: 'string', status: 'string', attempts: 'array' },
  credit_offers: { customer_id: 'string', status: 'string' },
  simulations: { credit_offer_id: 'string', customer_id: 'string' },
  loans: { customer_id: 'string', status: 'string' },
  transactions: { loan_id: 'string', status: 'string' },
};

const MAX_ID_LENGTH = 300;

/** What an import brings: the name to keep it under and the world, rows already the importer's. */
export interface ImportedSnapshot {
  name: string;
  world: PartnerWorld;
}

function invalid(detail: string, param = 'body'): ApiError {
  return new ApiError('snapshot_invalid', `${detail} Nothing was imported.`, { param });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasType(value: unknown, type: 'string' | 'number' | 'array' | 'object'): boolean {
  if (type === 'array') return Array.isArray(value);
  if (type === 'object') return isObject(value);
  if (type === 'number') return typeof value === 'number' && Number.isFinite(value);
  return typeof value === 'string';
}

function isInstant(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 40 && Number.isFinite(Date.parse(value));
}

/**
 * Checks a parsed export document whole and returns its world with every row moved to
 * `partnerId` (ids kept; an idempotency key's id names its partner, so that prefix moves too).
 * Throws `snapshot_invalid` naming the first problem; it never changes the store.
 */
export function readSnapshotDocument(
  document: unknown,
  partnerId: string,
  tableNames: readonly string[],
): ImportedSnapshot {
  if (!isObject(document)) throw invalid('The document is not a JSON object.');
  if (document.format !== SNAPSHOT_FORMAT) {
    throw invalid(`"format" must be "${SNAPSHOT_FORMAT}".`, 'format');
  }
  if (document.version !== SNAPSHOT_VERSION) {
    throw invalid(
      `Version ${JSON.stringify(document.version)} is unknown: this sandbox reads version ${SNAPSHOT_VERSION}.`,
      'version',
    );
  }
  const source = document.partner;
  if (typeof source !== 'string' || source.length === 0 || source.length > MAX_ID_LENGTH) {
    throw invalid('"partner" must be the id of the partner the snapshot was saved from.', 'partner');
  }
  const name = document.name;
  if (typeof name !== 'string' || !SNAPSHOT_NAME.test(name)) {
    throw invalid('"name" must match [a-z0-9][a-z0-9_.-]{0,62}.', 'name');
  }
  if (!isInstant(document.saved_at)) throw invalid('"saved_at" must be a date-time.', 'saved_at');
  const clock = document.clock;
  if (!isObject(clock) || !isInstant(clock.now) || typeof clock.frozen !== 'boolean') {
    throw invalid('"clock" must be {"now": date-time, "frozen": boolean}.', 'clock');
  }
  const draws = document.random_draws;
  if (draws !== null && !(typeof draws === 'number' && Number.isSafeInteger(draws) && draws >= 0)) {
    throw invalid('"random_draws" must be null or a whole number of draws.', 'random_draws');
  }
  if (!isObject(document.tables)) throw invalid('"tables" must be an object of row arrays.', 'tables');
  const known = new Set(tableNames);
  const tables: WorldTables = {};
  for (const [table, rows] of Object.entries(document.tables)) {
    if (!known.has(table))
      throw invalid(`"tables" has a table this sandbox does not know: "${table}".`, 'tables');
    if (!Array.isArray(rows)) throw invalid(`"tables.${table}" must be an array of rows.`, `tables.${table}`);
    tables[table] = readRows(table, rows, source, partnerId);
  }
  return {
    name,
    world: {
      clock: { now: new Date(Date.parse(clock.now as string)).toISOString(), frozen: clock.frozen },
      random_draws: draws,
      tables,
    },
  };
}

function readRows(table: string, rows: unknown[], source: string, partnerId: string): WorldRow[] {
  const required = REQUIRED_FIELDS[table] ?? {};
  const ids = new Set<string>();
  const out: WorldRow[] = [];
  const ownPrefix = `${source} `;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    const at = `tables.${table}[${i}]`;
    if (!isObject(row)) throw invalid(`${at} is not an object.`, at);
    const id = row.id;
    if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ID_LENGTH) {
      throw invalid(`${at}.id must be a non-empty string.`, `${at}.id`);
    }
    if (ids.has(id)) throw invalid(`${at}.id "${id}" appears twice in "${table}".`, `${at}.id`);
    ids.add(id);
    if (!(typeof row.seq === 'number' && Number.isSafeInteger(row.seq) && row.seq >= 0)) {
      throw invalid(`${at}.seq must be a whole number.`, `${at}.seq`);
    }
    if (row.partner_id !== source) {
      throw invalid(`${at}.partner_id must be "${source}", the document's partner.`, `${at}.partner_id`);
    }
    for (const [field, type] of Object.entries(required)) {
      if (!hasType(row[field], type)) throw invalid(`${at}.${field} must be a ${type}.`, `${at}.${field}`);
    }
    const moved = id.startsWith(ownPrefix) ? `${partnerId} ${id.slice(ownPrefix.length)}` : id;
    out.push({ ...row, id: moved, partner_id: partnerId } as WorldRow);
  }
  return out;
}
