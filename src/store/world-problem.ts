/** One row that fails a check: where it is, which field, and what is wrong. */
export interface RowProblem {
  table: string;
  /** Position of the row in its table's array. */
  index: number;
  /** The row's id, when it has a readable one. */
  id: string | undefined;
  /** Dotted path of the field inside the row (`kyc.0.status`), or `id` / `seq` / `partner_id`. */
  field: string;
  message: string;
}

/** Problems reported at most (the first one names the row in the answer's detail). */
export const MAX_PROBLEMS = 10;
