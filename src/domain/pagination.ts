import type { SortedIndex } from '../store/indexes.js';
import { ApiError } from './errors.js';

export type SortOrder = 'asc' | 'desc';

export interface PageRequest {
  limit: number;
  order: SortOrder;
  startingAfter?: string | undefined;
}

export interface Page<T> {
  data: T[];
  has_more: boolean;
}

/**
 * Reads one page of a sorted group. The cursor row is located by binary search, so the cost is
 * O(log n + scanned rows) however deep the cursor is. `matches` narrows the list (a filter with
 * no index); a cursor that names no row of the filtered list answers 400 `invalid_cursor`.
 */
export function paginate<T extends { id: string }>(
  index: SortedIndex<T>,
  group: string,
  request: PageRequest,
  lookup: (id: string) => T | undefined,
  matches: (row: T) => boolean = () => true,
): Page<T> {
  const rows = index.rows(group);
  const step = request.order === 'asc' ? 1 : -1;
  let at = request.order === 'asc' ? 0 : rows.length - 1;
  if (request.startingAfter !== undefined) {
    const cursor = lookup(request.startingAfter);
    const position = cursor && matches(cursor) ? index.positionOf(group, cursor) : -1;
    if (position < 0) {
      throw invalidCursor(request.startingAfter);
    }
    at = position + step;
  }
  const data: T[] = [];
  for (; at >= 0 && at < rows.length; at += step) {
    const row = rows[at] as T;
    if (!matches(row)) continue;
    if (data.length === request.limit) return { data, has_more: true };
    data.push(row);
  }
  return { data, has_more: false };
}

/** The 400 for a `starting_after` that names no item of the (filtered) list. */
export function invalidCursor(startingAfter: string): ApiError {
  return new ApiError(
    'invalid_cursor',
    `starting_after "${startingAfter}" is not an item of this list. Pass the id of the last item of the previous page, with the same filters.`,
    { param: 'starting_after' },
  );
}
