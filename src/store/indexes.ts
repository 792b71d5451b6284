import type { TableIndex } from './types.js';

/** Maps a unique key (e.g. partner + external id) to one row. Rows whose key is undefined are skipped. */
export class UniqueIndex<T> implements TableIndex<T> {
  private readonly map = new Map<string, T>();
  constructor(private readonly key: (row: T) => string | undefined) {}

  add(row: T): void {
    const k = this.key(row);
    if (k !== undefined) this.map.set(k, row);
  }
  remove(row: T): void {
    const k = this.key(row);
    if (k !== undefined && this.map.get(k) === row) this.map.delete(k);
  }
  clear(): void {
    this.map.clear();
  }
  get(key: string): T | undefined {
    return this.map.get(key);
  }
}

/** Groups rows by a key (e.g. partner id); iteration order is insertion order. */
export class GroupIndex<T extends { id: string }> implements TableIndex<T> {
  private readonly groups = new Map<string, Map<string, T>>();
  constructor(private readonly key: (row: T) => string | undefined) {}

  add(row: T): void {
    const k = this.key(row);
    if (k === undefined) return;
    let group = this.groups.get(k);
    if (!group) {
      group = new Map();
      this.groups.set(k, group);
    }
    group.set(row.id, row);
  }
  remove(row: T): void {
    const k = this.key(row);
    if (k === undefined) return;
    const group = this.groups.get(k);
    group?.delete(row.id);
    if (group && group.size === 0) this.groups.delete(k);
  }
  clear(): void {
    this.groups.clear();
  }
  get(key: string): readonly T[] {
    const group = this.groups.get(key);
    return group ? [...group.values()] : [];
  }
  count(key: string): number {
    return this.groups.get(key)?.size ?? 0;
  }
}

/**
 * Total order over rows; must never answer 0 for two different rows (break ties with `seq`).
 * `against(b)`, when given, is `(a) => order(a, b)` with whatever `b` costs to read worked out
 * once: a binary search compares one row with a dozen others.
 */
export type RowOrder<T> = ((a: T, b: T) => number) & { against?: (b: T) => (a: T) => number };

/**
 * Rows grouped by a key, each group kept sorted ascending by `order`. Serves cursor pagination in
 * O(log n + page size): the cursor row is found by binary search, never by a scan.
 *
 * A row leaving a long group far from its end (an offer leaving `available`, a loan leaving
 * `pending_signature`) is not spliced out at once, which would move every row after it: it is
 * found by binary search and noted as gone, and the group's array is cut down in one pass when a
 * reader asks for it (`rows`, `positionOf`) or when a sixteenth of it is gone. So removing costs
 * O(log n) plus, amortised, 16 moves, and at most a sixteenth of a group's array are rows already
 * gone (old versions kept alive until then). Groups are exact whenever they are read.
 */
export class SortedIndex<T> implements TableIndex<T> {
  private readonly groups = new Map<string, T[]>();
  /** Rows removed from a group but still in its array, by group key. */
  private readonly gone = new Map<string, Set<T>>();
  constructor(
    private readonly key: (row: T) => string | undefined,
    readonly order: RowOrder<T>,
    /** A removal that moves at most this many rows is done at once (tests pass 0). */
    private readonly spliceUpTo = 64,
  ) {}

  add(row: T): void {
    const k = this.key(row);
    if (k === undefined) return;
    let list = this.groups.get(k);
    if (!list) {
      list = [];
      this.groups.set(k, list);
    }
    if (this.gone.size > 0) {
      const gone = this.gone.get(k);
      // The very row removed earlier and still in place: it is back where it was.
      if (gone?.delete(row)) {
        if (gone.size === 0) this.gone.delete(k);
        return;
      }
    }
    // Appending (the newest row of a creation-order list) is the common case: one comparison, no
    // closure, no search, no splice.
    const last = list[list.length - 1];
    if (last === undefined || this.order(last, row) < 0) list.push(row);
    else list.splice(this.lowerBound(list, row), 0, row);
  }
  /**
   * Adds many rows with one sort per group touched: a restore of n rows in random order (a name
   * order) costs O(n log n) instead of n splices of O(n) each.
   */
  addAll(rows: readonly T[]): void {
    const touched = new Set<T[]>();
    for (const row of rows) {
      const k = this.key(row);
      if (k === undefined) continue;
      let list = this.groups.get(k);
      if (!list) {
        list = [];
        this.groups.set(k, list);
      }
      this.settle(k, list);
      list.push(row);
      touched.add(list);
    }
    for (const list of touched) list.sort(this.order);
  }
  /**
   * Removes many rows with one pass per group touched: taking a whole partner's world out costs
   * O(n), not n splices of O(n) each.
   */
  removeAll(rows: readonly T[]): void {
    const byGroup = new Map<string, Set<T>>();
    for (const row of rows) {
      const k = this.key(row);
      if (k === undefined) continue;
      let gone = byGroup.get(k);
      if (!gone) {
        gone = new Set();
        byGroup.set(k, gone);
      }
      gone.add(row);
    }
    for (const [k, gone] of byGroup) {
      const list = this.groups.get(k);
      if (!list) continue;
      for (const row of this.gone.get(k) ?? []) gone.add(row);
      this.gone.delete(k);
      this.cut(k, list, gone);
    }
  }
  remove(row: T): void {
    const k = this.key(row);
    if (k === undefined) return;
    const list = this.groups.get(k);
    if (!list) return;
    let gone = this.gone.size > 0 ? this.gone.get(k) : undefined;
    if (gone?.has(row)) return;
    // Dropping the oldest row (a ring trimmed from the front) is a shift, not a search.
    const at = list[0] === row ? 0 : this.find(list, row);
    if (at < 0) return;
    if (at === 0) list.shift();
    else if (list.length - at <= this.spliceUpTo) list.splice(at, 1);
    else {
      if (!gone) {
        gone = new Set();
        this.gone.set(k, gone);
      }
      gone.add(row);
      // Cut out once a sixteenth is gone (a group all gone is dropped by the cut).
      if (gone.size * 16 >= list.length) this.settle(k, list);
      return;
    }
    if (list.length === (gone?.size ?? 0)) this.drop(k);
  }
  /**
   * Swaps in a row's new version in place, O(log n), when its key and rank are unchanged (a
   * status change under a creation-order index); otherwise moves it. Without this, every update
   * of a row in a long list paid two O(n) splices.
   */
  replace(old: T, row: T): void {
    const k = this.key(old);
    const list = k === undefined ? undefined : this.groups.get(k);
    // A row noted as gone is not swapped back in place: its note would outlive it in the array.
    if (
      k !== undefined &&
      list &&
      k === this.key(row) &&
      this.order(old, row) === 0 &&
      !(this.gone.size > 0 && this.gone.get(k)?.has(old))
    ) {
      const at = this.find(list, old);
      if (at >= 0) {
        list[at] = row;
        return;
      }
    }
    this.remove(old);
    this.add(row);
  }
  clear(): void {
    this.groups.clear();
    this.gone.clear();
  }
  /** Whether the group has any row: one map lookup, nothing allocated (hot-path checks). */
  has(key: string): boolean {
    return this.groups.has(key);
  }
  /** The group's rows in ascending order (a live view: do not mutate, do not keep across writes). */
  rows(key: string): readonly T[] {
    const list = this.groups.get(key);
    if (!list) return [];
    this.settle(key, list);
    return list;
  }
  /** Position of `row` in its group, or -1 if it is not there. */
  positionOf(key: string, row: T): number {
    const list = this.groups.get(key);
    if (!list) return -1;
    this.settle(key, list);
    return this.find(list, row);
  }
  /** Rows removed but not yet cut out of their group's array (tests, the bound). */
  pendingRemovals(): number {
    let n = 0;
    for (const gone of this.gone.values()) n += gone.size;
    return n;
  }

  /** Cuts the rows noted as gone out of the group's array, in one pass. */
  private settle(k: string, list: T[]): void {
    if (this.gone.size === 0) return;
    const gone = this.gone.get(k);
    if (!gone) return;
    this.gone.delete(k);
    this.cut(k, list, gone);
  }

  private cut(k: string, list: T[], gone: ReadonlySet<T>): void {
    // In place: `rows()` hands out live views of these arrays.
    let kept = 0;
    for (const row of list) if (!gone.has(row)) list[kept++] = row;
    list.length = kept;
    if (kept === 0) this.drop(k);
  }

  private drop(k: string): void {
    this.groups.delete(k);
    this.gone.delete(k);
  }

  /**
   * Where `row` itself is in `list`, or -1: its rank by binary search, then past rows that rank
   * equal (the order is total for rows the API writes, but rows an older version let in may tie,
   * and so do a row's versions while an old one waits to be cut out).
   */
  private find(list: readonly T[], row: T): number {
    for (let at = this.lowerBound(list, row); at < list.length; at++) {
      const held = list[at] as T;
      if (held === row) return at;
      if (this.order(held, row) !== 0) return -1;
    }
    return -1;
  }

  private lowerBound(list: readonly T[], row: T, versus = this.versus(row)): number {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (versus(list[mid] as T) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** `(a) => order(a, row)`, with the row's side prepared once when the order can. */
  private versus(row: T): (a: T) => number {
    const order = this.order;
    return order.against ? order.against(row) : (a) => order(a, row);
  }
}

/** Compares ISO timestamps (or any strings), then the insertion sequence to make the order total. */
export function byField<T extends { seq: number }>(field: (row: T) => string): RowOrder<T> {
  return (a, b) => {
    const fa = field(a);
    const fb = field(b);
    if (fa < fb) return -1;
    if (fa > fb) return 1;
    return a.seq - b.seq;
  };
}
