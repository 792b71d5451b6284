/**
 * Moves made outside the API, inferred from a recording: where a later answer (or a delivered
 * event) shows an object further along than the target's copy of it, something happened that no
 * recorded request did — the customer completed the biometrics capture, the KYC review approved, the
 * customer signed, the pix went out, an installment was paid, time passed. The replay makes the same
 * move with the sandbox's control API (`/v3/sandbox/*`), or lets the target's clock run, until the
 * target's object shows the recorded status. Only forward: an object the target already has further
 * along is left as it is (and its difference reported).
 */

/** How far along each status is, per kind of object (the API's state machines, as the spec draws them). */
const RANKS: Record<string, Record<string, number>> = {
  customer: { pending_kyc: 0, under_review: 1, active: 2 },
  loan: {
    processing: 0,
    contract_generated: 1,
    awaiting_signatures: 2,
    signed: 3,
    disbursing: 4,
    active: 5,
    finished: 6,
    cancelled: 9,
    error: 9,
  },
  offer: { available: 0, accepted: 1, expired: 1 },
  transaction: { pending: 0, overdue: 1, partially_paid: 2, paid: 3 },
  document: { submitted: 0, approved: 1, rejected: 1 },
};

const KIND_OF_PREFIX: Record<string, string> = {
  cust: 'customer',
  ln: 'loan',
  co: 'offer',
  tx: 'transaction',
  doc: 'document',
};

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An object the target has behind the recording. */
export interface Lag {
  kind: string;
  /** The target's object (its id is the target's). */
  actual: Json;
  recorded: Json;
}

export function kindOf(id: string): string | undefined {
  return KIND_OF_PREFIX[id.slice(0, id.indexOf('_'))];
}

/** Whether `recorded` is further along than `actual` for a kind (unknown statuses never are). */
export function isBehind(kind: string, actual: unknown, recorded: unknown): boolean {
  const ranks = RANKS[kind];
  if (!ranks || typeof actual !== 'string' || typeof recorded !== 'string') return false;
  const a = ranks[actual];
  const r = ranks[recorded];
  return a !== undefined && r !== undefined && r > a;
}

/** The statuses of a kind that come before `status` (for "at least this far" conditions). */
export function earlierStatuses(kind: string, status: string): string[] {
  const ranks = RANKS[kind] ?? {};
  const rank = ranks[status];
  return rank === undefined ? [] : Object.keys(ranks).filter((other) => (ranks[other] ?? 0) < rank);
}

/** A customer's KYC items behind the recording's (matched by type). */
function kycBehind(actual: Json, recorded: Json): boolean {
  const rank: Record<string, number> = {
    pending: 0,
    pending_resubmission: 0,
    pending_correction: 0,
    submitted: 1,
    approved: 2,
  };
  const items = (value: unknown) => (Array.isArray(value) ? value.filter(isObject) : []);
  const mine = new Map(items(actual.kyc).map((item) => [item.type, item.status]));
  return items(recorded.kyc).some((item) => {
    const a = rank[String(mine.get(item.type))];
    const r = rank[String(item.status)];
    return a !== undefined && r !== undefined && r > a;
  });
}

/** Every object of `actual` behind its place in `recorded` (walked together, arrays pairwise). */
export function lagsOf(recorded: unknown, actual: unknown): Lag[] {
  const lags: Lag[] = [];
  const pending: Array<[unknown, unknown, number]> = [[recorded, actual, 0]];
  while (pending.length > 0) {
    const [left, right, depth] = pending.pop()!;
    if (depth > 64) continue;
    if (Array.isArray(left) && Array.isArray(right)) {
      for (let i = 0; i < Math.min(left.length, right.length); i++)
        pending.push([left[i], right[i], depth + 1]);
      continue;
    }
    if (!isObject(left) || !isObject(right)) continue;
    const kind = typeof right.id === 'string' ? kindOf(right.id) : undefined;
    if (
      kind &&
      (isBehind(kind, right.status, left.status) || (kind === 'customer' && kycBehind(right, left)))
    ) {
      lags.push({ kind, actual: right, recorded: left });
    }
    for (const [key, value] of Object.entries(left))
      if (key !== 'kyc') pending.push([value, right[key], depth + 1]);
  }
  return lags;
}

/** A control call that moves a lagging object one step toward the recorded status. */
export interface ControlMove {
  method: 'POST';
  path: string;
  body?: Json;
  /** For a reader: `sign loan ln_…`. */
  what: string;
}

function cents(amount: unknown): bigint | undefined {
  if (typeof amount !== 'string' || !/^\d+\.\d{2}$/.test(amount)) return undefined;
  return BigInt(amount.replace('.', ''));
}

function money(value: bigint): string {
  const text = value.toString().padStart(3, '0');
  return `${text.slice(0, -2)}.${text.slice(-2)}`;
}

/**
 * The control move for a lag, or undefined when only time moves it on (a contract being generated,
 * a pix being confirmed, a document under review, an installment falling overdue).
 */
export function controlMove(lag: Lag): ControlMove | undefined {
  const { actual, recorded } = lag;
  const id = String(actual.id);
  const target = recorded.status;
  if (lag.kind === 'customer') {
    const biometrics = (Array.isArray(actual.kyc) ? actual.kyc.filter(isObject) : []).find(
      (item) => item.type === 'biometrics',
    );
    if (biometrics && (biometrics.status === 'pending' || biometrics.status === 'pending_resubmission')) {
      const wanted = (Array.isArray(recorded.kyc) ? recorded.kyc.filter(isObject) : []).find(
        (item) => item.type === 'biometrics',
      );
      if (
        wanted?.status === 'approved' ||
        wanted?.status === 'submitted' ||
        isBehind('customer', actual.status, target)
      ) {
        return {
          method: 'POST',
          path: `/sandbox/customers/${id}/biometrics/complete`,
          body: { outcome: 'approved' },
          what: `the biometrics capture of customer ${id} completes`,
        };
      }
    }
    if (target === 'active' && actual.status === 'under_review') {
      return {
        method: 'POST',
        path: `/sandbox/customers/${id}/kyc/approve`,
        what: `the KYC review approves customer ${id}`,
      };
    }
    return undefined;
  }
  if (lag.kind === 'loan') {
    if (target === 'cancelled') {
      return actual.status === 'awaiting_signatures'
        ? {
            method: 'POST',
            path: `/sandbox/loans/${id}/decline`,
            what: `the customer declines to sign loan ${id}`,
          }
        : { method: 'POST', path: `/sandbox/loans/${id}/cancel`, what: `loan ${id} is cancelled` };
    }
    if (target === 'error') {
      const stage =
        actual.status === 'signed' || actual.status === 'disbursing' ? 'disbursement' : 'contract';
      return {
        method: 'POST',
        path: `/sandbox/loans/${id}/fail`,
        body: { stage },
        what: `loan ${id} fails at its ${stage}`,
      };
    }
    if (actual.status === 'awaiting_signatures' && isBehind('loan', 'awaiting_signatures', target)) {
      return { method: 'POST', path: `/sandbox/loans/${id}/sign`, what: `the customer signs loan ${id}` };
    }
    if (
      target === 'finished' &&
      actual.status === 'active' &&
      typeof actual.installments_value === 'string'
    ) {
      return {
        method: 'POST',
        path: `/sandbox/loans/${id}/payments`,
        body: { amount: actual.installments_value },
        what: `an installment of loan ${id} is paid`,
      };
    }
    return undefined;
  }
  if (lag.kind === 'offer' && target === 'expired') {
    return { method: 'POST', path: `/sandbox/credit-offers/${id}/expire`, what: `offer ${id} expires` };
  }
  if (lag.kind === 'transaction' && (target === 'paid' || target === 'partially_paid')) {
    const paid = cents(recorded.amount_paid);
    const has = cents(actual.amount_paid);
    if (paid === undefined || has === undefined || paid <= has || typeof actual.loan_id !== 'string')
      return undefined;
    return {
      method: 'POST',
      path: `/sandbox/loans/${actual.loan_id}/payments`,
      body: { amount: money(paid - has), installment_number: actual.installment_number },
      what: `installment ${String(actual.installment_number)} of loan ${actual.loan_id} receives ${money(paid - has)}`,
    };
  }
  return undefined;
}

/** How far the clock moves per wait for a lag: a day for an installment falling overdue, else a second. */
export function clockStep(lags: readonly Lag[]): string {
  return lags.every((lag) => lag.kind === 'transaction' && lag.recorded.status === 'overdue') ? '1d' : '1s';
}

/** The path a kind's object is read at, to check a delivered event against the target. */
export function readPath(kind: string, id: string): string | undefined {
  if (kind === 'customer') return `/customers/${id}`;
  if (kind === 'loan') return `/loans/${id}`;
  if (kind === 'offer') return `/credit-offers/${id}`;
  return undefined;
}
