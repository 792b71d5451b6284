import { ApiError } from '../domain/errors.js';
import { readSnapshotDocument } from '../domain/snapshot-import.js';
import {
  captureWorld,
  DEFAULT_MAX_SNAPSHOT_BYTES_TOTAL,
  getSnapshot,
  instanceSnapshotBytes,
  keepSnapshot,
  listSnapshots,
  MAX_SNAPSHOT_BYTES,
  snapshotCounts,
  snapshotId,
  snapshotTableNames,
} from '../domain/snapshots.js';
import type { AppDeps } from '../http/deps.js';
import { findTakenId, renumberWorld } from '../store/partner-world.js';
import { flushFor, WriteFailedError } from '../store/persistence.js';
import type { BiometricsSessionRecord } from '../store/records.js';
import type { SnapshotRecord, WorldRow } from '../store/snapshot-records.js';
import { StorageUnavailableError } from '../store/storage-health.js';
import { putWorldBack, putWorldInPlace, randomDraws, worldBefore } from '../webhooks/restore-world.js';
import { worldRules } from './snapshot-rules.js';

export { parseSnapshotUpload } from './snapshot-upload.js';

/** The public view of a snapshot (the world itself only in the export). */
export function snapshotView(row: SnapshotRecord) {
  return {
    name: row.name,
    saved_at: row.saved_at,
    clock: row.world.clock,
    random_draws: row.world.random_draws,
    bytes: row.bytes,
    counts: snapshotCounts(row),
  };
}

/** Saves the partner's world now under `name`. */
export function saveSnapshot(
  deps: AppDeps,
  partnerId: string,
  name: string,
  replace: boolean,
): SnapshotRecord {
  const world = captureWorld(
    deps.store,
    partnerId,
    deps.engine.clockView(partnerId),
    randomDraws(deps.store, partnerId, deps.streams.seeded),
  );
  return keepSnapshot(deps.store, partnerId, name, world, {
    replace,
    maxTotalBytes: deps.config.maxSnapshotBytesTotal,
  });
}

function swapDeps(deps: AppDeps) {
  return {
    store: deps.store,
    engine: deps.engine,
    webhooks: deps.webhooks,
    realNow: deps.realNow,
    seeded: deps.streams.seeded,
  };
}

/** Puts the partner's snapshot `name` back in place of its world. */
export function restoreSnapshot(deps: AppDeps, partnerId: string, name: string) {
  const row = getSnapshot(deps.store, partnerId, name);
  const { abandoned } = putWorldInPlace(swapDeps(deps), partnerId, row.world, row.name);
  return {
    snapshot: snapshotView(row),
    clock: deps.engine.clockView(partnerId),
    abandoned_deliveries: abandoned,
  };
}

/**
 * Refuses an import before its document is read when the instance keeps as many snapshot bytes as
 * it may already, and (`documentBytes`: its size, known before it is parsed) when even the smallest
 * world that document can hold has no room: such a body is neither parsed nor checked.
 */
export function refuseWhenFull(deps: AppDeps, partnerId: string, documentBytes?: number): void {
  const max = deps.config.maxSnapshotBytesTotal ?? DEFAULT_MAX_SNAPSHOT_BYTES_TOTAL;
  // Replacing one of the partner's snapshots frees its bytes: count the largest as freed.
  const own = listSnapshots(deps.store, partnerId).reduce((most, row) => Math.max(most, row.bytes), 0);
  const held = instanceSnapshotBytes(deps.store);
  // The world a document holds is its size less the envelope, give or take the partner ids
  // (rows move to this partner): 90 % of it is a size it surely has.
  const least = documentBytes === undefined ? 0 : Math.floor(documentBytes * 0.9);
  if (least > MAX_SNAPSHOT_BYTES) {
    throw new ApiError(
      'snapshot_limit_reached',
      `This document is ${documentBytes} bytes as JSON; a snapshot holds at most ${MAX_SNAPSHOT_BYTES}. Nothing was imported.`,
    );
  }
  if (held - own >= max || held - own + least > max) {
    const size = documentBytes === undefined ? '' : `; this document is ${documentBytes} bytes`;
    throw new ApiError(
      'snapshot_storage_full',
      `This sandbox instance keeps at most ${max} bytes of snapshots for all its partners together (--max-snapshot-bytes-total), and ${held} are kept${size}. Delete snapshots you no longer need (this partner's or others'), or ask whoever runs the sandbox to raise the bound. Nothing was imported.`,
    );
  }
}

/**
 * Imports an export document into the partner, all or nothing. First the whole document is
 * checked (every row like the API's own writes; nothing is kept before that; other requests are
 * served between every 1,000 rows checked), then its rows get fresh sequence numbers of this
 * sandbox (in their order), then it is kept as the partner's snapshot (`name`, or the document's),
 * put in place and made durable. When any of those later steps fails, the partner's world, clock
 * and snapshot are put back as they were (a database that refused the write has already reloaded
 * the partner as it was), and the error is answered.
 */
export async function importSnapshot(
  deps: AppDeps,
  partnerId: string,
  document: unknown,
  options: { name?: string | undefined; replace: boolean },
) {
  const imported = await readSnapshotDocument(
    document,
    partnerId,
    snapshotTableNames(deps.store),
    worldRules(deps),
    () => new Promise((resolve) => setImmediate(resolve)),
  );
  const name = options.name ?? imported.name;
  const taken = findTakenId(deps.store, partnerId, imported.world.tables);
  if (taken) {
    throw new ApiError(
      'snapshot_ids_taken',
      `Another partner of this sandbox holds ${taken.id} (${taken.table}), an id of this snapshot. Ids are kept on import, and one id belongs to one partner: import it into that partner, on another sandbox, or reset that partner first. Nothing was imported.`,
    );
  }
  refuseTakenTokens(deps, partnerId, imported.world.tables.biometrics_sessions ?? []);
  const quota = deps.config.quotas?.customers;
  const customers = imported.world.tables.customers?.length ?? 0;
  if (quota !== undefined && customers > quota) {
    throw new ApiError(
      'quota_exceeded',
      `The snapshot holds ${customers} customers; a partner of this hosted sandbox holds at most ${quota}. Nothing was imported.`,
    );
  }
  renumberWorld(deps.store, imported.world.tables);
  const swap = swapDeps(deps);
  const before = worldBefore(swap, partnerId, snapshotId(partnerId, name));
  try {
    const row = keepSnapshot(deps.store, partnerId, name, imported.world, {
      replace: options.replace,
      maxTotalBytes: deps.config.maxSnapshotBytesTotal,
    });
    const { abandoned } = putWorldInPlace(swap, partnerId, row.world, row.name);
    const result = {
      snapshot: snapshotView(row),
      clock: deps.engine.clockView(partnerId),
      abandoned_deliveries: abandoned,
    };
    await flushFor(deps.persistence, partnerId);
    return result;
  } catch (error) {
    throw undoImport(deps, before, error);
  }
}

/**
 * Puts the partner back as `before` after a failed import, and says what to answer. A refusal
 * (`ApiError`) happened before anything changed or is answered as it is; a database that refused
 * the write has reloaded the partner from what it holds (or handed it to another instance), and a
 * backend that cannot write (`StorageUnavailableError`: a full disk, PostgreSQL unreachable) has
 * rolled back every change not durable, the import's with them, so memory is left to them.
 */
function undoImport(deps: AppDeps, before: ReturnType<typeof worldBefore>, error: unknown): unknown {
  const partnerId = before.partner.id;
  const reloaded = error instanceof WriteFailedError && error.partnerIds.includes(partnerId);
  const rolledBack = error instanceof StorageUnavailableError;
  if (!reloaded && !rolledBack && deps.store.partners.get(partnerId)) {
    putWorldBack(swapDeps(deps), before);
    // The next flush writes the world as it was (a journal carries the failed change set along,
    // and the put-back lands on top of it).
    deps.persistence.flush().catch(() => {});
  }
  if (reloaded) {
    deps.log.error('an import was refused by the database and rolled back', error);
    return new ApiError(
      'write_failed',
      'The database refused to save this import; nothing of it was kept. Retry; if it fails again, the document holds something the database cannot store.',
    );
  }
  return error;
}

/** A biometrics session whose token another partner's session has would take over that partner's hosted page. */
function refuseTakenTokens(deps: AppDeps, partnerId: string, rows: readonly WorldRow[]): void {
  const sessions = rows as readonly BiometricsSessionRecord[];
  const index = deps.store.biometricsSessionIdx.byTokenHash;
  sessions.forEach((session, i) => {
    const held = index.get(session.token_hash);
    if (held && held.partner_id !== partnerId) {
      throw new ApiError(
        'snapshot_invalid',
        `Row ${i} of "biometrics_sessions" (id "${session.id}"), field "token_hash": is held by a session of another partner of this sandbox. Nothing was imported.`,
        { param: `tables.biometrics_sessions[${i}].token_hash` },
      );
    }
  });
}
