/** The partner a row belongs to: its `partner_id`, or its own id (a partner row). */
export function rowPartnerId(row: { id: string }): string {
  return (row as { partner_id?: string }).partner_id ?? row.id;
}

/**
 * A table's rows grouped by partner: what a partner's eviction, removal or snapshot reads, in the
 * partner's size rather than the table's (an instance holding thousands of partners drops one
 * without a pass over every row).
 */
export class PartnerGroups<T extends { id: string }> {
  private readonly groups = new Map<string, Map<string, T>>();

  add(row: T): void {
    const key = rowPartnerId(row);
    let group = this.groups.get(key);
    if (!group) {
      group = new Map();
      this.groups.set(key, group);
    }
    group.set(row.id, row);
  }

  remove(row: T): void {
    const key = rowPartnerId(row);
    const group = this.groups.get(key);
    if (!group) return;
    group.delete(row.id);
    if (group.size === 0) this.groups.delete(key);
  }

  /** A new version of a row already grouped. */
  replace(old: T, row: T): void {
    if (rowPartnerId(old) === rowPartnerId(row)) this.groups.get(rowPartnerId(row))?.set(row.id, row);
    else {
      this.remove(old);
      this.add(row);
    }
  }

  count(partnerId: string): number {
    return this.groups.get(partnerId)?.size ?? 0;
  }

  /** The partner's rows, in insertion order (a copy). */
  rows(partnerId: string): T[] {
    const group = this.groups.get(partnerId);
    return group ? [...group.values()] : [];
  }

  ids(partnerId: string): IterableIterator<string> | [] {
    return this.groups.get(partnerId)?.keys() ?? [];
  }

  /** Takes the partner's group out (its rows, for the caller to drop). */
  take(partnerId: string): T[] {
    const group = this.groups.get(partnerId);
    if (!group) return [];
    this.groups.delete(partnerId);
    return [...group.values()];
  }

  clear(): void {
    this.groups.clear();
  }
}
