import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FaultRuleRecord } from '../../store/records.js';
import { pickFault, planFault } from './decide.js';
import { formatFaultDuration, parseFaultDuration } from './durations.js';

function rule(overrides: Partial<FaultRuleRecord> = {}): FaultRuleRecord {
  return {
    id: 'flt_1',
    seq: 1,
    partner_id: 'ptn_1',
    method: 'POST',
    path: '/loans',
    action: { status: 503 },
    times_left: null,
    probability: null,
    expires_at_ms: null,
    applied: 0,
    created_at: '2026-03-02T12:00:00.000Z',
    ...overrides,
  };
}

const never = () => {
  throw new Error('no draw expected');
};

describe('pickFault', () => {
  it('matches method and path template exactly; a null method matches any', () => {
    const call = { method: 'POST', path: '/loans' };
    expect(pickFault([rule({ method: 'GET' })], call, 0, never).decision).toBeUndefined();
    expect(pickFault([rule({ path: '/loans/{loan_id}' })], call, 0, never).decision).toBeUndefined();
    expect(pickFault([rule({ method: null })], call, 0, never).decision?.rule.id).toBe('flt_1');
  });

  it('counts `times` down and drops the rule after its last call', () => {
    const first = pickFault([rule({ times_left: 2 })], { method: 'POST', path: '/loans' }, 0, never).decision;
    expect(first?.next).toMatchObject({ times_left: 1, applied: 1 });
    const last = pickFault(
      [rule({ times_left: 1, applied: 1 })],
      { method: 'POST', path: '/loans' },
      0,
      never,
    );
    expect(last.decision?.next).toBeNull();
  });

  it('skips expired rules and reports them; expiry is inclusive of its instant', () => {
    const old = rule({ id: 'flt_old', expires_at_ms: 1000 });
    const live = rule({ id: 'flt_live', seq: 2 });
    const picked = pickFault([old, live], { method: 'POST', path: '/loans' }, 1000, never);
    expect(picked.decision?.rule.id).toBe('flt_live');
    expect(picked.expired.map((r) => r.id)).toEqual(['flt_old']);
  });

  it('draws only for matching probability rules, and falls through to the next rule on a miss', () => {
    const draws = [0.9, 0.1];
    const draw = () => draws.shift() ?? 1;
    const chance = rule({ id: 'flt_p', probability: 0.5 });
    const other = rule({ id: 'flt_other', path: '/customers', probability: 0.5 });
    const fallback = rule({ id: 'flt_fallback', seq: 3 });
    const call = { method: 'POST', path: '/loans' };
    expect(pickFault([other, chance, fallback], call, 0, draw).decision?.rule.id).toBe('flt_fallback');
    expect(pickFault([other, chance, fallback], call, 0, draw).decision?.rule.id).toBe('flt_p');
  });

  it('acts with probability p on about p of the calls (any p, any draws)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 0.999, noNaN: true }),
        (p, u) => {
          const picked = pickFault(
            [rule({ probability: p })],
            { method: 'POST', path: '/loans' },
            0,
            () => u,
          );
          expect(picked.decision !== undefined).toBe(u < p);
        },
      ),
    );
  });
});

describe('planFault', () => {
  it('reads statuses, Retry-After and after_processing', () => {
    expect(planFault({ status: 429 }, never)).toEqual({
      kind: 'status',
      status: 429,
      retryAfterSeconds: 1,
      afterProcessing: false,
    });
    expect(planFault({ status: 502, after_processing: true }, never)).toMatchObject({
      retryAfterSeconds: null,
      afterProcessing: true,
    });
  });

  it('draws a delay in the range, both ends included', () => {
    const action = { delay: { min: '100ms', max: '2s' } };
    expect(planFault(action, () => 0)).toEqual({ kind: 'delay', ms: 100 });
    expect(planFault(action, () => 0.999_999_99)).toEqual({ kind: 'delay', ms: 2000 });
    expect(planFault({ delay: '2s' }, never)).toEqual({ kind: 'delay', ms: 2000 });
  });

  it('reads reset, timeout and truncate', () => {
    expect(planFault({ reset: true }, never)).toEqual({ kind: 'reset', afterProcessing: false });
    expect(planFault({ timeout: '30s', after_processing: true }, never)).toEqual({
      kind: 'timeout',
      ms: 30_000,
      afterProcessing: true,
    });
    expect(planFault({ truncate: true }, never)).toEqual({ kind: 'truncate' });
  });
});

describe('fault durations', () => {
  it('parses ms, s, m, h and d, and writes the largest exact unit', () => {
    expect(parseFaultDuration('250ms')).toBe(250);
    expect(parseFaultDuration('2s')).toBe(2000);
    expect(parseFaultDuration('10m')).toBe(600_000);
    expect(parseFaultDuration('1.5s')).toBeUndefined();
    expect(parseFaultDuration('2 s')).toBeUndefined();
    expect(formatFaultDuration(2000)).toBe('2s');
    expect(formatFaultDuration(1500)).toBe('1500ms');
    expect(formatFaultDuration(0)).toBe('0ms');
  });

  it('round-trips every duration it writes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30 * 86_400_000 }), (ms) => {
        expect(parseFaultDuration(formatFaultDuration(ms))).toBe(ms);
      }),
    );
  });
});
