import type { Clock } from '../engine/clock.js';
import type { FaultAction, PartnerRecord } from '../store/records.js';

/** Typed request variables set by the middleware (`c.get('partner')`). */
export interface AppEnv {
  Variables: {
    partner: PartnerRecord;
    clientId: string;
    clock: Clock;
    /** `req_` + 32 hex: the `Request-Id` of this request (every /v3 request). */
    requestId: string;
    /** The API-side fault rule that acted on this request, and what the client got when it was no HTTP answer. */
    fault: AppliedFault;
    /** The `code` of the problem this request was answered with, when `problemResponse` rendered it. */
    problemCode: string;
  };
}

/** What the faults middleware tells the request log about a faulted request. */
export interface AppliedFault {
  rule_id: string;
  action: FaultAction;
  /**
   * What went out instead of the app's answer when the fault acted on the wire: status 0 and no
   * text for a reset or a timeout, the truncated text for a truncation. Absent: the answer as sent.
   */
  sent?: { status: number; text: string | null };
}
