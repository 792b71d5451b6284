import { gunzipSync } from 'node:zlib';
import { ApiError } from '../domain/errors.js';
import { readSnapshotDocument } from '../domain/snapshot-import.js';
import {
  captureWorld,
  getSnapshot,
  keepSnapshot,
  MAX_SNAPSHOT_BYTES,
  snapshotCounts,
  snapshotTableNames,
} from '../domain/snapshots.js';
import type { AppDeps } from '../http/deps.js';
import { findTakenId } from '../store/partner-world.js';
import type { SnapshotRecord } from '../store/snapshot-records.js';
import { putWorldInPlace, randomDraws } from '../webhooks/restore-world.js';

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
  return keepSnapshot(deps.store, partnerId, name, world, { replace });
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

/** Largest import once decompressed: the biggest world plus the document around it. */
const MAX_DOCUMENT_BYTES = MAX_SNAPSHOT_BYTES + 1024 * 1024;

/** Turns an uploaded export (JSON, or gzip of it) into the parsed document, or `snapshot_invalid`. */
export function parseSnapshotUpload(bytes: Uint8Array): unknown {
  let data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (data[0] === 0x1f && data[1] === 0x8b) {
    try {
      data = gunzipSync(data, { maxOutputLength: MAX_DOCUMENT_BYTES });
    } catch (error) {
      const tooBig = (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE';
      throw tooBig
        ? new ApiError(
            'snapshot_limit_reached',
            `The document is larger than ${MAX_DOCUMENT_BYTES} bytes once decompressed; a snapshot holds at most ${MAX_SNAPSHOT_BYTES}. Nothing was imported.`,
          )
        : new ApiError('snapshot_invalid', 'The gzip data is damaged or cut short. Nothing was imported.', {
            param: 'body',
          });
    }
  }
  if (data.length === 0) {
    throw new ApiError(
      'snapshot_invalid',
      'The body is empty: send the export document. Nothing was imported.',
      {
        param: 'body',
      },
    );
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    throw new ApiError('snapshot_invalid', 'The document is not valid UTF-8. Nothing was imported.', {
      param: 'body',
    });
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(
      'snapshot_invalid',
      'The document is not valid JSON (damaged or cut short). Nothing was imported.',
      { param: 'body' },
    );
  }
}

/**
 * Imports an export document into the partner: checked whole first, then kept as the partner's
 * snapshot (`name`, or the document's) and put in place. Nothing changes when any check fails.
 */
export function importSnapshot(
  deps: AppDeps,
  partnerId: string,
  document: unknown,
  options: { name?: string | undefined; replace: boolean },
) {
  const imported = readSnapshotDocument(document, partnerId, snapshotTableNames(deps.store));
  const name = options.name ?? imported.name;
  const taken = findTakenId(deps.store, partnerId, imported.world.tables);
  if (taken) {
    throw new ApiError(
      'snapshot_ids_taken',
      `Another partner of this sandbox holds ${taken.id} (${taken.table}), an id of this snapshot. Ids are kept on import, and one id belongs to one partner: import it into that partner, on another sandbox, or reset that partner first. Nothing was imported.`,
    );
  }
  const quota = deps.config.quotas?.customers;
  const customers = imported.world.tables.customers?.length ?? 0;
  if (quota !== undefined && customers > quota) {
    throw new ApiError(
      'quota_exceeded',
      `The snapshot holds ${customers} customers; a partner of this hosted sandbox holds at most ${quota}. Nothing was imported.`,
    );
  }
  const row = keepSnapshot(deps.store, partnerId, name, imported.world, { replace: options.replace });
  const { abandoned } = putWorldInPlace(swapDeps(deps), partnerId, row.world, row.name);
  return {
    snapshot: snapshotView(row),
    clock: deps.engine.clockView(partnerId),
    abandoned_deliveries: abandoned,
  };
}
