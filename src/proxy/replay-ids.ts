/**
 * The ids a replay learns: each id the recording holds (a customer, document, offer, simulation,
 * loan, transaction, webhook endpoint, credential…) mapped to the id the target gave the same
 * object. An id is learned where both answers put one — the same field of the same place in two
 * answers to the same request (`id`, `*_id`), or the last segment of `Location` — and substituted
 * wherever the recording's later requests name it: path, query, body.
 */

/** What an id looks like: a short lower-case prefix, `_`, then at least 6 more characters. */
const ID = /^[a-z]{2,8}_[A-Za-z0-9_-]{6,}$/;
const ID_IN_TEXT = /\b[a-z]{2,8}_[A-Za-z0-9_-]{6,}\b/g;
/** A walk deeper than this stops (the API's own bodies are refused past 64 levels). */
const MAX_DEPTH = 64;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isIdField(key: string): boolean {
  return key === 'id' || key.endsWith('_id');
}

export class IdMap {
  private readonly ids = new Map<string, string>();
  private readonly targets = new Set<string>();

  get size(): number {
    return this.ids.size;
  }

  /** The target's id for a recorded one, if learned. */
  get(recorded: string): string | undefined {
    return this.ids.get(recorded);
  }

  /** Whether a target id is already the counterpart of some recorded id. */
  hasTarget(actual: string): boolean {
    return this.targets.has(actual);
  }

  /** Records a pair; the first pair learned for a recorded id stays. */
  add(recorded: string, actual: string): void {
    if (recorded === actual || this.ids.has(recorded) || !ID.test(recorded) || !ID.test(actual)) return;
    // Both ids must name the same kind of object (the same prefix).
    if (recorded.slice(0, recorded.indexOf('_')) !== actual.slice(0, actual.indexOf('_'))) return;
    this.ids.set(recorded, actual);
    this.targets.add(actual);
  }

  /** Learns from two answers to the same request, walking both together. */
  learn(recorded: unknown, actual: unknown): void {
    const pending: Array<[unknown, unknown, number]> = [[recorded, actual, 0]];
    while (pending.length > 0) {
      const [left, right, depth] = pending.pop()!;
      if (depth > MAX_DEPTH) continue;
      if (Array.isArray(left) && Array.isArray(right)) {
        for (let i = 0; i < Math.min(left.length, right.length); i++)
          pending.push([left[i], right[i], depth + 1]);
      } else if (isObject(left) && isObject(right)) {
        for (const [key, value] of Object.entries(left)) {
          const other = right[key];
          if (isIdField(key) && typeof value === 'string' && typeof other === 'string')
            this.add(value, other);
          else pending.push([value, other, depth + 1]);
        }
      }
    }
  }

  /** Learns from two `Location` headers (`/v3/customers/cust_…`). */
  learnLocation(recorded: string | undefined, actual: string | undefined): void {
    if (recorded === undefined || actual === undefined) return;
    const left = recorded.split('/');
    const right = actual.split('/');
    if (left.length !== right.length) return;
    for (const [i, segment] of left.entries()) this.add(segment, right[i]!);
  }

  /** A text with every learned id replaced by its counterpart. */
  substitute(text: string): string {
    return text.replace(ID_IN_TEXT, (id) => this.ids.get(id) ?? id);
  }

  /** A JSON value with every learned id replaced, in strings at any depth (keys untouched). */
  substituteValue(value: unknown, depth = 0): unknown {
    if (typeof value === 'string') return this.substitute(value);
    if (depth > MAX_DEPTH) return value;
    if (Array.isArray(value)) return value.map((item) => this.substituteValue(item, depth + 1));
    if (isObject(value)) {
      return Object.fromEntries(
        Object.entries(value).map(([key, item]) => [key, this.substituteValue(item, depth + 1)]),
      );
    }
    return value;
  }
}
