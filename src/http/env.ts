import type { Clock } from '../engine/clock.js';
import type { PartnerRecord } from '../store/records.js';

/** Typed request variables set by the middleware (`c.get('partner')`). */
export interface AppEnv {
  Variables: {
    partner: PartnerRecord;
    clientId: string;
    clock: Clock;
    /** `req_` + 32 hex: the `Request-Id` of this request (every /v3 request). */
    requestId: string;
  };
}
