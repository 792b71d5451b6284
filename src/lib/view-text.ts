/**
 * JSON text of a view of a row, serialised once per row version. Rows are immutable (a change is
 * a new row object), so a text kept beside its row object stays true until the row is replaced;
 * a view that also depends on something else (a clock date, the public URL) is kept with that
 * key and made again when the key moves.
 *
 * Bounded: the texts live in two generations of weak maps (a kept text never keeps its row
 * alive); once the young generation holds `budgetBytes` of text, the old one is dropped and the
 * young one becomes old. One cache thus holds at most twice its budget (by default 2 × 1 MiB of
 * JSON, a few thousand rows), and a row read again after two generations is serialised again.
 */
export type JsonText<V> = string & { readonly __view?: V };

/** Per view: the most bytes of text one generation holds (see the bound above). */
export const VIEW_TEXT_BUDGET_BYTES = 1024 * 1024;

interface Kept<K> {
  key: K;
  text: string;
}

class Generations<R extends object, K> {
  private young = new WeakMap<R, Kept<K>>();
  private old = new WeakMap<R, Kept<K>>();
  private youngBytes = 0;

  constructor(private readonly budgetBytes: number) {}

  get(row: R): Kept<K> | undefined {
    const kept = this.young.get(row);
    if (kept !== undefined) return kept;
    const older = this.old.get(row);
    if (older !== undefined) this.keep(row, older);
    return older;
  }

  keep(row: R, kept: Kept<K>): void {
    // Texts are ASCII or Latin-1 almost always: one byte a character in V8's heap.
    this.youngBytes += kept.text.length;
    if (this.youngBytes > this.budgetBytes) {
      this.old = this.young;
      this.young = new WeakMap();
      this.youngBytes = kept.text.length;
    }
    this.young.set(row, kept);
  }
}

/** `JSON.stringify(view(row))`, kept per row version. */
export function viewText<R extends object, V>(
  view: (row: R) => V,
  budgetBytes = VIEW_TEXT_BUDGET_BYTES,
): (row: R) => JsonText<V> {
  const kept = new Generations<R, undefined>(budgetBytes);
  return (row) => {
    let entry = kept.get(row);
    if (entry === undefined) {
      entry = { key: undefined, text: JSON.stringify(view(row)) };
      kept.keep(row, entry);
    }
    return entry.text as JsonText<V>;
  };
}

/** `JSON.stringify(view(row, key))`, kept per row version and the latest key it was asked with. */
export function keyedViewText<R extends object, K, V>(
  view: (row: R, key: K) => V,
  budgetBytes = VIEW_TEXT_BUDGET_BYTES,
): (row: R, key: K) => JsonText<V> {
  const kept = new Generations<R, K>(budgetBytes);
  return (row, key) => {
    let entry = kept.get(row);
    if (entry === undefined || entry.key !== key) {
      entry = { key, text: JSON.stringify(view(row, key)) };
      kept.keep(row, entry);
    }
    return entry.text as JsonText<V>;
  };
}

/**
 * JSON texts kept by id, for rows that are rebuilt on each read (the request inspector's entries are
 * decoded from a packed ring, a new object each time, so a weak map by row never hits). Only for
 * rows that never change under their id: the caller checks that the row still exists, and is the
 * caller's, before answering a kept text. The same two generations and budget as `viewText`; a text
 * larger than the budget is not kept. In entries: an inspector entry's JSON is at least ~300 bytes,
 * so at most ~7,000 are held. A class of its own, not `Generations` over a Map, so the weak-map
 * lookup every view read makes stays the only kind that class sees.
 */
export class TextsById {
  private young = new Map<string, string>();
  private old = new Map<string, string>();
  private youngBytes = 0;

  constructor(private readonly budgetBytes = VIEW_TEXT_BUDGET_BYTES) {}

  get(id: string): string | undefined {
    return this.young.get(id) ?? this.old.get(id);
  }

  keep(id: string, text: string): void {
    if (text.length > this.budgetBytes) return;
    this.youngBytes += text.length;
    if (this.youngBytes > this.budgetBytes) {
      this.old = this.young;
      this.young = new Map();
      this.youngBytes = text.length;
    }
    this.young.set(id, text);
  }

  /** Characters of text held now (tests). */
  get heldBytes(): number {
    let n = 0;
    for (const map of [this.young, this.old]) for (const text of map.values()) n += text.length;
    return n;
  }
}

/** The list envelope `{"data":[…],"has_more":…}` around texts: `JSON.stringify` of the same page. */
export function listText<V>(
  items: readonly JsonText<V>[],
  hasMore: boolean,
): JsonText<{ data: V[]; has_more: boolean }> {
  return `{"data":[${items.join(',')}],"has_more":${hasMore}}` as JsonText<{ data: V[]; has_more: boolean }>;
}
