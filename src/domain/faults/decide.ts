import type { FaultAction, FaultRuleRecord } from '../../store/records.js';
import { parseFaultDuration } from './durations.js';

/** A call as fault rules see it: its method and the path template of its route below `/v3`. */
export interface FaultCall {
  method: string;
  path: string;
}

/** The rule that acts on a call, and what becomes of it: counted down, or gone when used up. */
export interface FaultDecision {
  rule: FaultRuleRecord;
  /** The rule after this call; null when this was its last (`times` reached 0). */
  next: FaultRuleRecord | null;
}

/**
 * Picks the rule that acts on a call: the first, in order of creation, whose method and path
 * match, that has not expired and whose `probability` draw succeeds. Only matching rules with a
 * probability draw, so the same calls under `--seed` draw the same numbers. Expired rules met on
 * the way are returned for removal. Pure: the clock reading and the draws are passed in.
 */
export function pickFault(
  rules: readonly FaultRuleRecord[],
  call: FaultCall,
  nowMs: number,
  draw: () => number,
): { decision: FaultDecision | undefined; expired: FaultRuleRecord[] } {
  const expired: FaultRuleRecord[] = [];
  for (const rule of rules) {
    if (rule.expires_at_ms !== null && nowMs >= rule.expires_at_ms) {
      expired.push(rule);
      continue;
    }
    if (rule.path !== call.path || (rule.method !== null && rule.method !== call.method)) continue;
    if (rule.probability !== null && draw() >= rule.probability) continue;
    const applied = rule.applied + 1;
    let next: FaultRuleRecord | null;
    if (rule.times_left === null) next = { ...rule, applied };
    else next = rule.times_left > 1 ? { ...rule, times_left: rule.times_left - 1, applied } : null;
    return { decision: { rule, next }, expired };
  }
  return { decision: undefined, expired };
}

/** What the HTTP layer does for an action, with its random choices made and durations read. */
export type FaultPlan =
  | { kind: 'status'; status: number; retryAfterSeconds: number | null; afterProcessing: boolean }
  | { kind: 'delay'; ms: number }
  | { kind: 'reset'; afterProcessing: boolean }
  | { kind: 'timeout'; ms: number; afterProcessing: boolean }
  | { kind: 'truncate' };

/** How long a 429 fault tells the client to wait when the rule does not say. */
export const DEFAULT_RETRY_AFTER_SECONDS = 1;

/**
 * Turns a stored action into a plan. A delay range draws its length (uniform, whole
 * milliseconds, both ends included) from `draw`; nothing else draws. Durations were checked when
 * the rule was added.
 */
export function planFault(action: FaultAction, draw: () => number): FaultPlan {
  if ('status' in action) {
    return {
      kind: 'status',
      status: action.status,
      retryAfterSeconds: action.status === 429 ? (action.retry_after ?? DEFAULT_RETRY_AFTER_SECONDS) : null,
      afterProcessing: action.after_processing === true,
    };
  }
  if ('delay' in action) {
    if (typeof action.delay === 'string') return { kind: 'delay', ms: durationMs(action.delay) };
    const min = durationMs(action.delay.min);
    const max = durationMs(action.delay.max);
    return { kind: 'delay', ms: min + Math.floor(draw() * (max - min + 1)) };
  }
  if ('reset' in action) return { kind: 'reset', afterProcessing: action.after_processing === true };
  if ('timeout' in action) {
    return {
      kind: 'timeout',
      ms: durationMs(action.timeout),
      afterProcessing: action.after_processing === true,
    };
  }
  return { kind: 'truncate' };
}

function durationMs(text: string): number {
  return parseFaultDuration(text) ?? 0;
}
