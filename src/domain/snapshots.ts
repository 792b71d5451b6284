import {
  captureWorldTables,
  partnerRows,
  snapshotTableNames,
  type WorldRow,
  worldBytes,
} from '../store/partner-world.js';
import type { PartnerWorld, SavedClock, SnapshotRecord } from '../store/snapshot-records.js';
import type { Store } from '../store/store.js';
import type { TableIndex } from '../store/types.js';
import { ApiError } from './errors.js';

/** DESIGN "Snapshots": names are short, lowercase and safe in URLs and file names. */
export const SNAPSHOT_NAME = /^[a-z0-9][a-z0-9_.-]{0,62}$/;
/** Bounds of what a partner's snapshots keep (documented in docs/snapshots.md). */
export const MAX_SNAPSHOTS_PER_PARTNER = 20;
export const MAX_SNAPSHOT_BYTES = 16 * 1024 * 1024;
export const MAX_PARTNER_SNAPSHOT_BYTES = 64 * 1024 * 1024;
/**
 * Default bound of the snapshot bytes (as JSON, decompressed) one instance keeps for all its
 * partners together (`--max-snapshot-bytes-total`). Memory follows it: see docs/snapshots.md.
 */
export const DEFAULT_MAX_SNAPSHOT_BYTES_TOTAL = 128 * 1024 * 1024;

export const SNAPSHOT_FORMAT = 'credit-sandbox-snapshot';
export const SNAPSHOT_VERSION = 1;

/** The export: one versioned JSON document holding a partner's world. */
export interface SnapshotDocument {
  format: typeof SNAPSHOT_FORMAT;
  version: typeof SNAPSHOT_VERSION;
  /** The partner it was saved from (an import puts the rows into the importing partner). */
  partner: string;
  name: string;
  saved_at: string;
  clock: SavedClock;
  random_draws: number | null;
  tables: Record<string, WorldRow[]>;
}

export function snapshotId(partnerId: string, name: string): string {
  return `${partnerId} ${name}`;
}

/** The partner's world now: every row of the snapshot tables, its clock and random position. */
export function captureWorld(
  store: Store,
  partnerId: string,
  clock: SavedClock,
  randomDraws: number | null,
): PartnerWorld {
  return { clock, random_draws: randomDraws, tables: captureWorldTables(store, partnerId) };
}

/** The partner's snapshots, newest first. */
export function listSnapshots(store: Store, partnerId: string): SnapshotRecord[] {
  return (partnerRows(store, 'snapshots', partnerId) as SnapshotRecord[])
    .slice()
    .sort((a, b) => b.seq - a.seq);
}

export function getSnapshot(store: Store, partnerId: string, name: string): SnapshotRecord {
  const row = SNAPSHOT_NAME.test(name) ? store.snapshots.get(snapshotId(partnerId, name)) : undefined;
  if (!row) {
    throw new ApiError(
      'resource_not_found',
      `No snapshot named "${name}" exists for this partner. GET /v3/sandbox/snapshots lists its snapshots.`,
      { param: 'name' },
    );
  }
  return row;
}

export function deleteSnapshot(store: Store, partnerId: string, name: string): SnapshotRecord {
  const row = getSnapshot(store, partnerId, name);
  store.snapshots.delete(row.id);
  return row;
}

/** What the bounds of snapshots need to know of a new one (see `refuseWithoutRoom`). */
export interface SnapshotRoom {
  name: string;
  /** Its size as JSON, the bounds' measure. */
  bytes: number;
  replace: boolean;
  /** The instance's bound (`--max-snapshot-bytes-total`); the default when absent. */
  maxTotalBytes?: number | undefined;
}

/**
 * Refuses a snapshot the bounds have no room for: a taken name (unless `replace`), the count per
 * partner, the size of one, the partner's total, the instance's total. An import asks first with
 * an estimate, before it reads the document; keeping asks again with the exact size.
 */
export function refuseWithoutRoom(store: Store, partnerId: string, room: SnapshotRoom): void {
  const { name, bytes } = room;
  const id = snapshotId(partnerId, name);
  const existing = store.snapshots.get(id);
  if (existing && !room.replace) {
    throw new ApiError(
      'snapshot_exists',
      `This partner already has a snapshot named "${name}" (saved at ${existing.saved_at}). Send "replace": true to overwrite it, or pick another name.`,
      { param: 'name' },
    );
  }
  const others = listSnapshots(store, partnerId).filter((row) => row.id !== id);
  if (others.length >= MAX_SNAPSHOTS_PER_PARTNER) {
    throw new ApiError(
      'snapshot_limit_reached',
      `This partner already keeps ${others.length} snapshots, the most allowed (${MAX_SNAPSHOTS_PER_PARTNER}). Delete one first.`,
    );
  }
  if (bytes > MAX_SNAPSHOT_BYTES) {
    throw new ApiError(
      'snapshot_limit_reached',
      `This world is ${bytes} bytes as JSON; a snapshot holds at most ${MAX_SNAPSHOT_BYTES}. Reset or trim the partner, or use several partners.`,
    );
  }
  const kept = others.reduce((sum, row) => sum + row.bytes, 0);
  if (kept + bytes > MAX_PARTNER_SNAPSHOT_BYTES) {
    throw new ApiError(
      'snapshot_limit_reached',
      `This partner's snapshots would hold ${kept + bytes} bytes together; at most ${MAX_PARTNER_SNAPSHOT_BYTES} are kept. Delete snapshots you no longer need.`,
    );
  }
  const maxTotal = room.maxTotalBytes ?? DEFAULT_MAX_SNAPSHOT_BYTES_TOTAL;
  const held = instanceSnapshotBytes(store) - (existing?.bytes ?? 0);
  if (held + bytes > maxTotal) {
    throw new ApiError(
      'snapshot_storage_full',
      `This sandbox instance keeps at most ${maxTotal} bytes of snapshots for all its partners together (--max-snapshot-bytes-total); ${held} are kept and this one is ${bytes}. Delete snapshots you no longer need (this partner's or others'), or ask whoever runs the sandbox to raise the bound.`,
    );
  }
}

/**
 * Keeps `world` as the partner's snapshot `name` within the bounds (count, bytes each and
 * together, the instance's total). An existing name is refused unless `replace`.
 */
export function keepSnapshot(
  store: Store,
  partnerId: string,
  name: string,
  world: PartnerWorld,
  options: { replace: boolean; maxTotalBytes?: number | undefined },
): SnapshotRecord {
  const id = snapshotId(partnerId, name);
  const existing = store.snapshots.get(id);
  // The size the bounds count: the world as JSON, as the export and the persistence write it.
  const bytes = worldBytes(world.tables) + 200;
  refuseWithoutRoom(store, partnerId, { name, bytes, ...options });
  const row: SnapshotRecord = {
    id,
    seq: store.nextSeq(),
    partner_id: partnerId,
    name,
    saved_at: world.clock.now,
    bytes,
    world,
  };
  return existing ? store.snapshots.replace(row) : store.snapshots.insert(row);
}

/** Sums the `bytes` of every snapshot a store holds, kept in step with the table. */
class SnapshotBytes implements TableIndex<SnapshotRecord> {
  total = 0;
  add(row: SnapshotRecord): void {
    this.total += row.bytes;
  }
  remove(row: SnapshotRecord): void {
    this.total -= row.bytes;
  }
  clear(): void {
    this.total = 0;
  }
}

const totals = new WeakMap<Store, SnapshotBytes>();

/** Bytes (as JSON) of every snapshot this instance holds, all partners together. */
export function instanceSnapshotBytes(store: Store): number {
  let sum = totals.get(store);
  if (!sum) {
    sum = store.snapshots.index(new SnapshotBytes());
    totals.set(store, sum);
  }
  return sum.total;
}

/** The export document of a snapshot. */
export function snapshotDocument(row: SnapshotRecord): SnapshotDocument {
  return {
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    partner: row.partner_id,
    name: row.name,
    saved_at: row.saved_at,
    clock: row.world.clock,
    random_draws: row.world.random_draws,
    tables: row.world.tables,
  };
}

/** Row counts per table, for listings. */
export function snapshotCounts(row: SnapshotRecord): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [name, rows] of Object.entries(row.world.tables)) counts[name] = rows.length;
  return counts;
}

export { snapshotTableNames };
