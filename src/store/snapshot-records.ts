export type WorldRow = { id: string; partner_id?: string; seq?: number };

/** Every row of one partner in the snapshot tables, per table name. */
export type WorldTables = Record<string, WorldRow[]>;

/** A partner clock as a snapshot keeps it: the reading at save time and whether it ran. */
export interface SavedClock {
  now: string;
  frozen: boolean;
}

/** One partner's whole world at an instant (see DESIGN "Snapshots"). */
export interface PartnerWorld {
  clock: SavedClock;
  /** Draws of the partner's seeded random stream so far (`--seed`); null without a seed. */
  random_draws: number | null;
  tables: WorldTables;
}

/** A named snapshot of a partner, kept in a table of its own (`--data`, PostgreSQL). */
export interface SnapshotRecord {
  /** `${partner_id} ${name}`: names are unique per partner. */
  id: string;
  seq: number;
  partner_id: string;
  name: string;
  /** Partner-clock time of the save (= `world.clock.now`). */
  saved_at: string;
  /** Bytes of the world as JSON (what the bounds count; the export is about this size). */
  bytes: number;
  world: PartnerWorld;
}
