import type { RowOrder } from './indexes.js';
import type { TableIndex } from './types.js';

interface Group<T> {
  /** Binary min-heap by `order`; may still hold removed rows until they reach the top. */
  heap: T[];
  /** The rows currently in the group. */
  live: Set<T>;
}

/**
 * Rows grouped by a key, each group a min-heap by `order`: the smallest row is read in O(1) and
 * adding or removing a row costs O(log n) amortized. Made for queues that are drained from the
 * front (the scheduler's due jobs), where a sorted array would pay O(n) per removal. Removal is
 * lazy: a removed row leaves the heap when it surfaces, or when dead rows outnumber live ones.
 */
export class HeapIndex<T> implements TableIndex<T> {
  private readonly groups = new Map<string, Group<T>>();

  constructor(
    private readonly key: (row: T) => string | undefined,
    readonly order: RowOrder<T>,
  ) {}

  add(row: T): void {
    const k = this.key(row);
    if (k === undefined) return;
    let group = this.groups.get(k);
    if (!group) {
      group = { heap: [], live: new Set() };
      this.groups.set(k, group);
    }
    group.live.add(row);
    group.heap.push(row);
    this.siftUp(group.heap, group.heap.length - 1);
  }

  remove(row: T): void {
    const k = this.key(row);
    if (k === undefined) return;
    const group = this.groups.get(k);
    if (!group?.live.delete(row)) return;
    if (group.live.size === 0) {
      this.groups.delete(k);
      return;
    }
    // Rebuild when dead rows dominate, so cancelled rows cannot pile up.
    if (group.heap.length > 2 * group.live.size + 32) this.rebuild(group);
  }

  clear(): void {
    this.groups.clear();
  }

  /** The smallest row of the group, or undefined when it is empty. */
  peek(key: string): T | undefined {
    const group = this.groups.get(key);
    if (!group) return undefined;
    const heap = group.heap;
    while (heap.length > 0 && !group.live.has(heap[0] as T)) this.pop(heap);
    return heap[0];
  }

  size(key: string): number {
    return this.groups.get(key)?.live.size ?? 0;
  }

  /** The group's rows in ascending order: a sorted copy, O(n log n); for inspection, not hot paths. */
  rows(key: string): readonly T[] {
    const group = this.groups.get(key);
    return group ? [...group.live].sort(this.order) : [];
  }

  private rebuild(group: Group<T>): void {
    group.heap = [...group.live];
    for (let i = (group.heap.length >>> 1) - 1; i >= 0; i--) this.siftDown(group.heap, i);
  }

  private pop(heap: T[]): void {
    const last = heap.pop() as T;
    if (heap.length === 0) return;
    heap[0] = last;
    this.siftDown(heap, 0);
  }

  private siftUp(heap: T[], at: number): void {
    const row = heap[at] as T;
    while (at > 0) {
      const parent = (at - 1) >>> 1;
      if (this.order(heap[parent] as T, row) <= 0) break;
      heap[at] = heap[parent] as T;
      at = parent;
    }
    heap[at] = row;
  }

  private siftDown(heap: T[], at: number): void {
    const row = heap[at] as T;
    const n = heap.length;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= n) break;
      if (child + 1 < n && this.order(heap[child + 1] as T, heap[child] as T) < 0) child++;
      if (this.order(heap[child] as T, row) >= 0) break;
      heap[at] = heap[child] as T;
      at = child;
    }
    heap[at] = row;
  }
}
