import { type ChangeSet, TOMBSTONE_TABLE } from '../change-set.js';
import { rowPartner } from './rows.js';

// How a flush's change set is cut when the database refuses part of it: per partner, deletes
// apart, and what a refusal leaves unsaved, for the error and the shutdown line.

export function onlyPartner(changes: ChangeSet, partnerId: string): ChangeSet {
  const tables: ChangeSet['tables'] = {};
  for (const [name, table] of Object.entries(changes.tables)) {
    const upserts = table.upserts.filter((row) => rowPartner(row) === partnerId);
    if (upserts.length > 0) tables[name] = { upserts, deletes: [] };
  }
  return { meta: changes.meta, tables };
}

export function onlyDeletes(changes: ChangeSet): ChangeSet {
  const tables: ChangeSet['tables'] = {};
  for (const [name, table] of Object.entries(changes.tables)) {
    if (table.deletes.length > 0) tables[name] = { upserts: [], deletes: table.deletes };
  }
  return { meta: changes.meta, tables };
}

/** "customers 1, requests 2" (rows not saved per table), for the error and the shutdown line. */
export function describeUnsaved(changes: ChangeSet, partners: Set<string>): string {
  const parts: string[] = [];
  for (const [name, table] of Object.entries(changes.tables)) {
    const rows = table.upserts.filter((row) => partners.has(rowPartner(row))).length;
    if (rows > 0) parts.push(`${name} ${rows}`);
  }
  return parts.length > 0 ? `rows not saved: ${parts.join(', ')}` : 'deletes not saved';
}

/** The partners whose rows the change set writes (tombstones name gone partners: not theirs). */
export function partnersOf(changes: ChangeSet): string[] {
  const ids = new Set<string>();
  for (const [name, table] of Object.entries(changes.tables)) {
    if (name === TOMBSTONE_TABLE) continue;
    for (const row of table.upserts) ids.add(rowPartner(row));
  }
  for (const id of changes.deleters ?? []) ids.add(id);
  return [...ids];
}

export function withoutPartners(changes: ChangeSet, lost: Set<string>): ChangeSet {
  const tables: ChangeSet['tables'] = {};
  for (const [name, table] of Object.entries(changes.tables)) {
    tables[name] = {
      upserts: table.upserts.filter((row) => !lost.has(rowPartner(row))),
      deletes: table.deletes,
    };
  }
  const deleters = changes.deleters?.filter((id) => !lost.has(id));
  return deleters?.length ? { meta: changes.meta, tables, deleters } : { meta: changes.meta, tables };
}

/**
 * The removals of a change set (partners and their tombstones, written in a transaction of their
 * own) apart from the rest, or undefined when it removes no partner.
 */
export function splitRemovals(
  changes: ChangeSet,
): { partnerIds: string[]; tombstones: { id: string }[]; rest: ChangeSet } | undefined {
  if (!changes.purged || changes.purged.length === 0) return undefined;
  const { [TOMBSTONE_TABLE]: tombstones, ...tables } = changes.tables;
  return {
    partnerIds: changes.purged,
    tombstones: tombstones?.upserts ?? [],
    rest: {
      meta: changes.meta,
      // The removal covers what it deleted of the removed partners (their leases are gone with it).
      ...withDeleters(changes.deleters?.filter((id) => !changes.purged?.includes(id))),
      tables: tombstones?.deletes.length
        ? { ...tables, [TOMBSTONE_TABLE]: { upserts: [], deletes: tombstones.deletes } }
        : tables,
    },
  };
}

function withDeleters(deleters: string[] | undefined): { deleters?: string[] } {
  return deleters && deleters.length > 0 ? { deleters } : {};
}
